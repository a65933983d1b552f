#if Web
    import Foundation
    import HTTPTypes
    import ShortcutsTestSupport

    #if canImport(Glibc)
        import Glibc
    #endif

    /// One HTTP/1.1 request to a server on this machine and its whole answer, over a socket of
    /// its own (`Connection: close`), read on a thread outside the cooperative pool, whose
    /// threads the server under test needs to answer. Redirects are not followed and cookies
    /// are not kept: the test sees exactly what the server sent.
    ///
    /// ```swift
    /// let answer = try await HTTPExchange.send(port: 8080, method: .get, path: "/", headers: [:], body: nil)
    /// #expect(answer.status == .ok)
    /// ```
    enum HTTPExchange {
        /// What the server answered.
        struct Answer: Sendable {
            var status: HTTPResponse.Status
            var headers: HTTPFields
            var body: [UInt8]
        }

        struct Failure: Error, CustomStringConvertible {
            var description: String
        }

        /// Sends a request and reads the answer until the server closes the connection (a
        /// minute at most between bytes).
        static func send(port: Int, method: HTTPRequest.Method, path: String, headers: HTTPFields, body: [UInt8]?) async throws -> Answer {
            var head = "\(method.rawValue) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
            for field in headers { head += "\(field.name.rawName): \(field.value)\r\n" }
            if let body { head += "Content-Length: \(body.count)\r\n" }
            let request = Array((head + "\r\n").utf8) + (body ?? [])
            let raw = try await detached { try exchange(request, port: port) }
            return try parse(raw)
        }

        /// A socket connected to a port of this machine's loopback address; the caller closes it.
        static func connectedSocket(port: Int) throws -> Int32 {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw Failure(description: "no socket: \(String(cString: strerror(errno)))") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw Failure(description: "cannot connect to port \(port): \(reason)")
            }
            return descriptor
        }

        private static func exchange(_ request: [UInt8], port: Int) throws -> [UInt8] {
            let descriptor = try connectedSocket(port: port)
            defer { close(descriptor) }
            var patience = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
            var sent = 0
            while sent < request.count {
                let count = request[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { throw Failure(description: "the request could not be sent: \(String(cString: strerror(errno)))") }
                sent += count
            }
            var answer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = Glibc.recv(descriptor, &chunk, chunk.count, 0)
                if count == 0 { return answer }
                guard count > 0 else { throw Failure(description: "reading the answer failed: \(String(cString: strerror(errno)))") }
                answer += chunk[..<count]
            }
        }

        /// The status line, the header fields and the body (chunks joined) of a whole answer.
        static func parse(_ raw: [UInt8]) throws -> Answer {
            let separator: [UInt8] = [13, 10, 13, 10]
            guard let headEnd = (0..<max(raw.count - 3, 0)).first(where: { Array(raw[$0..<$0 + 4]) == separator }) else {
                throw Failure(description: "the answer has no end of head: \(String(decoding: raw, as: UTF8.self))")
            }
            let lines = String(decoding: raw[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
            let statusWords = lines[0].split(separator: " ", maxSplits: 2)
            guard statusWords.count >= 2, let code = Int(statusWords[1]) else { throw Failure(description: "no status in '\(lines[0])'") }
            var headers = HTTPFields()
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else { continue }
                headers.append(HTTPField(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
            var body = Array(raw[(headEnd + 4)...])
            if headers[.transferEncoding]?.lowercased() == "chunked" { body = try dechunked(body) }
            let reason = statusWords.count > 2 ? String(statusWords[2]) : ""
            return Answer(status: HTTPResponse.Status(code: code, reasonPhrase: reason), headers: headers, body: body)
        }

        private static func dechunked(_ bytes: [UInt8]) throws -> [UInt8] {
            var body: [UInt8] = []
            var index = 0
            while index < bytes.count {
                guard let lineEnd = (index..<bytes.count - 1).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
                    let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16)
                else { throw Failure(description: "a malformed chunk at byte \(index)") }
                if size == 0 { return body }
                let start = lineEnd + 2
                guard start + size <= bytes.count else { throw Failure(description: "a chunk cut short at byte \(start)") }
                body += bytes[start..<start + size]
                index = start + size + 2
            }
            return body
        }
    }
#endif
