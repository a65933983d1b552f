#if Web
    import Foundation

    /// What `/events` sends: a run that started or changed, the counts of the last day's runs, or
    /// a comment that keeps the stream open. Each is one server-sent event.
    ///
    /// ```
    /// event: run
    /// data: {"id":"1f3a…","status":"failed",…}
    ///
    /// : heartbeat
    /// ```
    enum LiveEvent: Sendable {
        case run(RunRow)
        case summary([StatusCount])
        case heartbeat

        /// The event in the `text/event-stream` format, ending with its blank line.
        var text: String {
            switch self {
            case .run(let row): "event: run\ndata: \(Self.json(row))\n\n"
            case .summary(let counts): "event: summary\ndata: \(Self.json(["counts": counts]))\n\n"
            case .heartbeat: ": heartbeat\n\n"
            }
        }

        private static func json(_ value: some Encodable) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
        }
    }
#endif
