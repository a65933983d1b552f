#if Web
    import Foundation
    import WorkflowKit

    /// A run's steps as bars on a time axis, drawn in SVG on the server: each bar starts where the
    /// step started and is as long as it took, one row per step in the order they were recorded.
    /// Each bar has a `<title>` with the step and its times.
    struct Timeline: Sendable {
        struct Bar: Sendable {
            var y: Int
            var textY: Int
            /// Where the label starts: indented by the step's depth.
            var labelX: Int
            var x: String
            var width: String
            var label: String
            var title: String
            var hasError: Bool
            var anchor: String
        }

        struct Tick: Sendable {
            var x: String
            var label: String
        }

        static let labelWidth = 240
        static let plotWidth = 720
        static let rowHeight = 22

        var width = Self.labelWidth + Self.plotWidth + 40
        var height: Int
        var plotLeft = Self.labelWidth
        var plotRight = Self.labelWidth + Self.plotWidth
        var axisY: Int
        var bars: [Bar]
        var ticks: [Tick]
        var total: String

        init(run: RunHistory.Run, steps: [RunHistory.RecordedStep], times: TimeText) {
            let start = run.startedAt
            let lastEnd = steps.map { $0.startedAt.timeIntervalSince(start) + $0.durationSeconds }.max() ?? 0
            let span = max(run.endedAt.map { $0.timeIntervalSince(start) } ?? 0, lastEnd, 0.001)
            func x(_ seconds: Double) -> Double { Double(Self.labelWidth) + max(0, min(seconds / span, 1)) * Double(Self.plotWidth) }
            func number(_ value: Double) -> String { String(format: "%.1f", value) }
            bars = steps.enumerated().map { row, step in
                let offset = step.startedAt.timeIntervalSince(start)
                let left = x(offset)
                let right = max(x(offset + step.durationSeconds), left + 2)
                var label = step.kind + (step.stepID.map { " " + $0 } ?? "") + (step.branch.map { " \($0)" } ?? "")
                let maximum = 30 - 2 * min(step.depth, 8)
                if label.count > maximum { label = String(label.prefix(maximum - 1)) + "…" }
                return Bar(
                    y: row * Self.rowHeight + 4, textY: row * Self.rowHeight + 18, labelX: 4 + 14 * min(step.depth, 8), x: number(left),
                    width: number(right - left), label: label,
                    title:
                        "\(step.kind)\(step.stepID.map { " \($0)" } ?? "") at \(step.file):\(step.line):\(step.column): started +\(times.duration(max(offset, 0))), took \(times.duration(step.durationSeconds))"
                        + (step.error == nil ? "" : ", failed"),
                    hasError: step.error != nil, anchor: "#step-\(step.position)")
            }
            axisY = steps.count * Self.rowHeight + 8
            height = axisY + 24
            ticks = (0...4).map { part in
                let seconds = span * Double(part) / 4
                return Tick(x: number(x(seconds)), label: times.duration(seconds))
            }
            total = times.duration(span)
        }
    }
#endif
