import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One accepted connection: reads HTTP/1.1 requests (bodies by `Content-Length` or chunked)
/// and writes responses, on the thread that serves it.
final class HTTPConnection {
    private let socket: Int32
    private var buffer: [UInt8] = []

    init(socket: Int32) {
        self.socket = socket
    }

    /// The next request, or `nil` when the client closed the connection or sent something
    /// that is not HTTP.
    func readRequest() -> LocalHTTPServer.Request? {
        if buffer.isEmpty {
            guard receive() else { return nil }
        }
        // A request starts with a method in capitals; anything else (a TLS handshake) is not HTTP.
        guard (65...90).contains(buffer[0]) else {
            _ = transmit(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return nil
        }
        guard let headEnd = readUntil([13, 10, 13, 10]) else { return nil }
        let head = buffer.withUnsafeBufferPointer { String(decoding: $0[..<headEnd], as: UTF8.self) }
        buffer.removeFirst(headEnd + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            guard transmit(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return nil }
        }
        let body: [UInt8]
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            guard let chunked = readChunkedBody() else { return nil }
            body = chunked
        } else {
            let length = headers["content-length"].flatMap { Int($0) } ?? 0
            guard let fixed = read(count: length) else { return nil }
            body = fixed
        }
        let target = String(requestLine[1])
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return LocalHTTPServer.Request(
            method: String(requestLine[0]), path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : nil,
            headers: headers, body: Data(body))
    }

    /// Writes a response; returns `false` when the client has gone.
    func write(_ response: LocalHTTPServer.Response, toHEAD isHEAD: Bool) -> Bool {
        var head = "HTTP/1.1 \(response.status) \(Self.reasonPhrase(response.status))\r\n"
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if response.sendsContentLength {
            head += "Content-Length: \(response.body.count)\r\n"
        } else {
            head += "Connection: close\r\n"
        }
        head += "\r\n"
        guard transmit(Array(head.utf8)) else { return false }
        if isHEAD || response.body.isEmpty { return true }
        return response.body.withUnsafeBytes { bytes in transmit(UnsafeRawBufferPointer(bytes)) }
    }

    private func readChunkedBody() -> [UInt8]? {
        var body: [UInt8] = []
        while true {
            guard let lineEnd = readUntil([13, 10]) else { return nil }
            let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            buffer.removeFirst(lineEnd + 2)
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            if size == 0 {
                // Trailers, if any, end with an empty line.
                while let end = readUntil([13, 10]) {
                    buffer.removeFirst(end + 2)
                    if end == 0 { return body }
                }
                return nil
            }
            guard let chunk = read(count: size + 2) else { return nil }
            body += chunk.dropLast(2)
        }
    }

    /// Reads until `marker` is buffered; returns its offset.
    private func readUntil(_ marker: [UInt8]) -> Int? {
        var searchedUpTo = 0
        while true {
            if buffer.count >= marker.count {
                var index = max(0, searchedUpTo - marker.count)
                while index + marker.count <= buffer.count {
                    if buffer[index] == marker[0] && Array(buffer[index..<(index + marker.count)]) == marker { return index }
                    index += 1
                }
                searchedUpTo = buffer.count
            }
            guard receive() else { return nil }
        }
    }

    private func read(count: Int) -> [UInt8]? {
        while buffer.count < count {
            guard receive() else { return nil }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    private func receive() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let received = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if received < 0 && errno == EINTR { continue }
            guard received > 0 else { return false }
            buffer += chunk[..<received]
            return true
        }
    }

    private func transmit(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { transmit($0) }
    }

    private func transmit(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = send(socket, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}
