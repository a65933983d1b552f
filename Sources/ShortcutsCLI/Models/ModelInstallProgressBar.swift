import Foundation
import TextEmbedding

/// The progress of a model installation on standard error, drawn only on a terminal:
///
/// ```
/// downloading model.safetensors [###########-------------------]  33.1/90.9 MB
/// ```
final class ModelInstallProgressBar: @unchecked Sendable {
    private let width = 30
    private let lock = NSLock()
    private var lastLine: String?
    private var lastFile: String?
    let isVisible: Bool

    init(isVisible: Bool = isatty(STDERR_FILENO) == 1) {
        self.isVisible = isVisible
    }

    /// Redraws the line when what it shows changes.
    func update(_ progress: ModelInstallProgress) {
        guard isVisible else { return }
        let line = Self.line(for: progress, width: width)
        lock.withLock {
            guard line != lastLine else { return }
            let file = progress.step.rawValue + " " + progress.file
            if lastFile != nil, lastFile != file { CommandOutput.current.writeError(Data("\n".utf8)) }
            lastFile = file
            lastLine = line
            CommandOutput.current.writeError(Data(("\r" + line).utf8))
        }
    }

    /// Ends the line.
    func finish() {
        guard isVisible, lock.withLock({ lastLine }) != nil else { return }
        CommandOutput.current.writeError(Data("\n".utf8))
    }

    static func line(for progress: ModelInstallProgress, width: Int) -> String {
        let filled = Int((progress.fractionCompleted * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let megabytes = { (bytes: Int) in String(format: "%.1f", Double(bytes) / 1_000_000) }
        let total = megabytes(progress.totalBytes)
        let done = megabytes(min(progress.completedBytes, max(progress.totalBytes, progress.completedBytes)))
        return
            "\(progress.step.rawValue) \(progress.file) [\(bar)] \(String(repeating: " ", count: max(0, total.count - done.count)))\(done)/\(total) MB"
    }
}
