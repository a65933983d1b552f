#if Web
    import Foundation
    import IntentKit
    import ShortcutsTestSupport
    import Testing
    import WorkflowKit

    @testable import Dashboard

    /// `/events` on a live server: a page that listens learns of runs that start and end,
    /// whichever process records them.
    @Suite("Dashboard live updates")
    struct LiveUpdatesTests {
        @Test("A listening page gets an event when a run starts and when it ends, with the day's counts, and heartbeats")
        func runStartsAndEnds() async throws {
            let harness = try DashboardHarness(workflows: ["greet.yaml"]) { configuration in
                configuration.heartbeatInterval = .milliseconds(300)
            }
            try await harness.test { browser in
                let stream = try EventStreamReader(port: browser.port)
                let opening = try await stream.event(timeout: 60)
                #expect(opening.contains("retry: 2000"))
                // Another process writing the same history: a second store on the same file.
                let other = try RunHistory(path: harness.home.appendingPathComponent("runs.sqlite").path)
                let workflow = try WorkflowLoader.load(contentsOf: harness.workflows.appendingPathComponent("greet.yaml"))
                let id = try other.begin(workflow: workflow, trigger: "automation")
                let started = try await stream.event(matching: "event: run", timeout: 60)
                #expect(started.contains(#""id":"\#(id)""#) && started.contains(#""status":"running""#), "\(started)")
                #expect(started.contains(#""trigger":"automation""#) && started.contains(#""workflowFile":"greet.yaml""#))
                #expect(started.contains(#""href":"/runs/\#(id)""#))
                let counts = try await stream.event(matching: "event: summary", timeout: 60)
                #expect(counts.contains(#"{"count":1,"status":"running"}"#), "\(counts)")
                try other.finish(id, status: .failed, output: nil, error: "no disk", steps: [])
                let ended = try await stream.event(matching: "event: run", timeout: 60)
                #expect(ended.contains(#""id":"\#(id)""#) && ended.contains(#""status":"failed""#), "\(ended)")
                let after = try await stream.event(matching: "event: summary", timeout: 60)
                #expect(after.contains(#"{"count":1,"status":"failed"}"#) && after.contains(#"{"count":0,"status":"running"}"#))
                let heartbeat = try await stream.event(matching: ": heartbeat", timeout: 60)
                #expect(heartbeat.hasPrefix(": heartbeat"))
                stream.close()
            }
        }

        @Test("A page that does not read its events is dropped once its buffer is full; pages that come later get events")
        func slowListenerDropped() async throws {
            let harness = try DashboardHarness(workflows: ["greet.yaml"])
            let site = try DashboardSite(harness.configuration)
            let slow = site.broadcaster.subscribe()
            for _ in 0..<(RunBroadcaster.bufferSize + 10) { site.broadcaster.send(.heartbeat) }
            var buffered = 0
            for await _ in slow { buffered += 1 }
            #expect(buffered == RunBroadcaster.bufferSize, "the slow page kept its buffer, then its stream ended")
            #expect(site.broadcaster.subscriberCount == 0)
            let later = site.broadcaster.subscribe()
            site.broadcaster.send(.heartbeat)
            var iterator = later.makeAsyncIterator()
            let event = await iterator.next()
            #expect(event.map { $0.text } == ": heartbeat\n\n")
            site.broadcaster.close()
            #expect(await iterator.next() == nil, "closing ends every stream")
        }
    }

    /// Reads a server-sent event stream over a plain socket, event by event: the response's head,
    /// then its chunks, then the events in them.
    final class EventStreamReader: @unchecked Sendable {
        private let descriptor: Int32
        private var raw: [UInt8] = []
        private var isPastHead = false
        private var text = ""

        init(port: Int) throws {
            descriptor = try HTTPExchange.connectedSocket(port: port)
            let request = "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n"
            _ = request.withCString { send(descriptor, $0, strlen($0), 0) }
        }

        /// The next event (its lines, without the blank line that ends it).
        func readEvent(timeout: Double) throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                decode()
                if let end = text.range(of: "\n\n") {
                    let event = String(text[..<end.lowerBound])
                    text = String(text[end.upperBound...])
                    return event
                }
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0 else { throw StreamError(message: "no event within \(timeout) s; read: \(text)") }
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, Int32(remaining * 1000)) == 1 else { continue }
                var bytes = [UInt8](repeating: 0, count: 4096)
                let count = recv(descriptor, &bytes, bytes.count, 0)
                guard count > 0 else { throw StreamError(message: "the stream ended; read: \(text)") }
                raw += bytes[..<count]
            }
        }

        /// The next event, waited for outside the cooperative pool, whose threads the server
        /// under test needs to send it.
        func event(timeout: Double) async throws -> String {
            try await detached { try self.readEvent(timeout: timeout) }
        }

        /// The next event that contains a text, waited for outside the cooperative pool.
        func event(matching wanted: String, timeout: Double) async throws -> String {
            try await detached { try self.readEvent(matching: wanted, timeout: timeout) }
        }

        /// The next event whose text contains `wanted`, skipping others.
        func readEvent(matching wanted: String, timeout: Double) throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                let event = try readEvent(timeout: max(deadline.timeIntervalSinceNow, 0.01))
                if event.contains(wanted) { return event }
            }
        }

        /// Moves what arrived into ``text``: past the head, each whole chunk's payload.
        private func decode() {
            let lineEnd: [UInt8] = [13, 10]
            func index(of pattern: [UInt8], from start: Int = 0) -> Int? {
                guard raw.count >= pattern.count + start else { return nil }
                return (start...(raw.count - pattern.count)).first { Array(raw[$0..<$0 + pattern.count]) == pattern }
            }
            if !isPastHead {
                guard let end = index(of: lineEnd + lineEnd) else { return }
                raw.removeFirst(end + 4)
                isPastHead = true
            }
            while let sizeEnd = index(of: lineEnd), let size = Int(String(decoding: raw[..<sizeEnd], as: UTF8.self), radix: 16),
                raw.count >= sizeEnd + 2 + size + 2
            {
                text += String(decoding: raw[(sizeEnd + 2)..<(sizeEnd + 2 + size)], as: UTF8.self)
                raw.removeFirst(sizeEnd + 2 + size + 2)
            }
        }

        func close() {
            shutdown(descriptor, Int32(SHUT_RDWR))
        }

        deinit {
            Glibc.close(descriptor)
        }

        struct StreamError: Error, CustomStringConvertible {
            var message: String
            var description: String { message }
        }
    }
#endif
