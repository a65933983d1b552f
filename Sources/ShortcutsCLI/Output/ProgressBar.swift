import Foundation
import SpotlightKit

/// A progress bar on standard error, drawn only when standard error is a terminal.
///
/// ```
/// Rebuilding library [##############----------------]  120/240
/// ```
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let width = 30
    private let lock = NSLock()
    private var lastDrawn: Int?
    let isVisible: Bool

    init(label: String, isVisible: Bool = isatty(STDERR_FILENO) == 1) {
        self.label = label
        self.isVisible = isVisible
    }

    /// Redraws the bar for a progress report (at most once per filled cell or count change).
    func update(_ progress: IndexingProgress) {
        guard isVisible else { return }
        lock.withLock {
            guard lastDrawn != progress.completedCount else { return }
            lastDrawn = progress.completedCount
            CommandOutput.current.writeError(Data(("\r" + Self.line(label: label, progress: progress, width: width)).utf8))
        }
    }

    /// Ends the bar's line.
    func finish() {
        guard isVisible, lastDrawn != nil else { return }
        CommandOutput.current.writeError(Data("\n".utf8))
    }

    static func line(label: String, progress: IndexingProgress, width: Int) -> String {
        let filled = Int((progress.fractionCompleted * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let total = String(progress.totalCount)
        let done = String(progress.completedCount)
        return "\(label) [\(bar)] \(String(repeating: " ", count: max(0, total.count - done.count)))\(done)/\(total)"
    }
}
