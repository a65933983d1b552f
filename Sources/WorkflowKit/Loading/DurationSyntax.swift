/// Durations written as numbers with units: `500ms`, `30s`, `10m`, `1h`, `2d`, `1.5s`, `1h30m`.
package enum DurationSyntax {
    private static let unitSeconds: [(suffix: String, seconds: Double)] = [
        ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)
    ]

    /// A duration in words for messages: `200 ms`, `30 s`, `1.5 s`.
    ///
    /// ```swift
    /// DurationSyntax.describe(.milliseconds(200))   // "200 ms"
    /// ```
    package static func describe(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds < 1 ? "\(Int(seconds * 1000)) ms" : seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }

    /// The duration, or `nil` when the text is not one number-and-unit or a sequence of them.
    package static func parse(_ text: String) -> Duration? {
        var remaining = Substring(text)
        var totalMilliseconds: Double = 0
        guard !remaining.isEmpty else { return nil }
        while !remaining.isEmpty {
            let number = remaining.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, number.count <= 12, number.first != ".", number.last != ".",
                let value = Double(number)
            else { return nil }
            remaining = remaining.dropFirst(number.count)
            let unit = remaining.prefix { $0.isASCII && $0.isLetter }
            guard let seconds = unitSeconds.first(where: { $0.suffix == unit })?.seconds else { return nil }
            remaining = remaining.dropFirst(unit.count)
            totalMilliseconds += value * seconds * 1000
        }
        guard totalMilliseconds.isFinite, totalMilliseconds < 1e15 else { return nil }
        return .milliseconds(Int64(totalMilliseconds.rounded()))
    }
}
