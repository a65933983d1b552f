#if Web
    import Foundation

    /// Bars made of stacked segments (runs per day, one segment per status), drawn in SVG on the
    /// server: each segment has a `<title>` with its value, and the same numbers go in a table for
    /// screen readers.
    struct StackedBarChart: Sendable {
        struct Segment: Sendable {
            var y: String
            var height: String
            var series: String
            var title: String
        }

        struct Bar: Sendable {
            var x: String
            var width: String
            var labelX: String
            var label: String
            var showsLabel: Bool
            var segments: [Segment]
        }

        struct GridLine: Sendable {
            var y: String
            var label: String
        }

        /// A row of the data table.
        struct Row: Sendable {
            var label: String
            var values: [Int]
            var total: Int
        }

        static let plotTop = 10.0
        static let plotHeight = 220.0
        static let plotLeft = 48.0
        static let plotWidth = 820.0

        var width = Int(Self.plotLeft + Self.plotWidth + 12)
        var height = Int(Self.plotTop + Self.plotHeight + 40)
        var axisY = String(format: "%.1f", Self.plotTop + Self.plotHeight)
        var labelY = String(format: "%.1f", Self.plotTop + Self.plotHeight + 18)
        var plotLeft = String(format: "%.1f", Self.plotLeft)
        var plotRight = String(format: "%.1f", Self.plotLeft + Self.plotWidth)
        var series: [String]
        var bars: [Bar]
        var gridLines: [GridLine]
        var rows: [Row]
        var total: Int

        /// A chart of one bar per label.
        ///
        /// - Parameters:
        ///   - labels: The bars' labels, in order.
        ///   - series: The segments' names, bottom first; each is the class that colours it.
        ///   - values: For each bar, the value of each series.
        init(labels: [String], series: [String], values: [[Int]]) {
            self.series = series
            let totals = values.map { $0.reduce(0, +) }
            let maximum = Self.roundedUp(totals.max() ?? 0)
            let slot = Self.plotWidth / Double(max(labels.count, 1))
            let labelEvery = max(1, Int((Double(labels.count) / 10).rounded(.up)))
            func number(_ value: Double) -> String { String(format: "%.1f", value) }
            func y(_ value: Double) -> Double { Self.plotTop + Self.plotHeight - value / Double(maximum) * Self.plotHeight }
            bars = labels.enumerated().map { index, label in
                var below = 0
                var segments: [Segment] = []
                for (name, value) in zip(series, values[index]) where value > 0 {
                    segments.append(
                        Segment(
                            y: number(y(Double(below + value))), height: number(Double(value) / Double(maximum) * Self.plotHeight), series: name,
                            title: "\(label): \(value) \(name)"))
                    below += value
                }
                let x = Self.plotLeft + slot * Double(index) + slot * 0.15
                return Bar(
                    x: number(x), width: number(slot * 0.7), labelX: number(x + slot * 0.35), label: label,
                    showsLabel: (labels.count - 1 - index) % labelEvery == 0, segments: segments)
            }
            gridLines = (0...4).map { part in
                let value = Double(maximum) * Double(part) / 4
                return GridLine(y: number(y(value)), label: value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value))
            }
            rows = labels.enumerated().map { Row(label: $1, values: values[$0], total: totals[$0]) }
            total = totals.reduce(0, +)
        }

        /// A round top for the axis: 1, 2, 5 or 10 times a power of ten, at least the value (and 4).
        static func roundedUp(_ value: Int) -> Int {
            guard value > 4 else { return 4 }
            var power = 1
            while power * 10 < value { power *= 10 }
            for step in [1, 2, 5, 10] where step * power >= value { return step * power }
            return value
        }
    }
#endif
