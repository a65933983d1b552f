import Foundation

/// Where a command's standard output and error go: the process's, unless a caller runs the
/// command with others, as a test does to read what it printed.
///
/// Every text a command prints goes through the current output: `print` in this module is
/// ``print(_:separator:terminator:)`` below, and what a command writes at once (a line of a
/// run still going, an error) goes through ``write(_:)`` and ``writeError(_:)``.
///
/// ```swift
/// CommandOutput.current.writeError("warning: \(warning)\n")
/// ```
public struct CommandOutput: Sendable {
    private let printed: @Sendable (String) -> Void
    private let written: @Sendable (Data) -> Void
    private let errors: @Sendable (Data) -> Void

    /// An output made of three sinks.
    ///
    /// - Parameters:
    ///   - printed: Receives the text of `print`, which the process's output buffers.
    ///   - written: Receives what is written to the standard output at once.
    ///   - errors: Receives what is written to the standard error.
    public init(
        printed: @escaping @Sendable (String) -> Void, written: @escaping @Sendable (Data) -> Void, errors: @escaping @Sendable (Data) -> Void
    ) {
        self.printed = printed
        self.written = written
        self.errors = errors
    }

    /// The process's standard output and error.
    public static let process = CommandOutput(
        printed: { Swift.print($0, terminator: "") }, written: { FileHandle.standardOutput.write($0) },
        errors: { FileHandle.standardError.write($0) })

    /// The output of the command running in this task.
    @TaskLocal public static var current = CommandOutput.process

    /// Prints text to the standard output, buffered as `print` is.
    public func print(_ text: String) { printed(text) }

    /// Writes to the standard output at once.
    public func write(_ data: Data) { written(data) }

    /// Writes text to the standard output at once.
    public func write(_ text: String) { written(Data(text.utf8)) }

    /// Writes to the standard error.
    public func writeError(_ data: Data) { errors(data) }

    /// Writes text to the standard error.
    public func writeError(_ text: String) { errors(Data(text.utf8)) }
}

/// `print` as the commands use it: to the current command's standard output.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    CommandOutput.current.print(items.map { "\($0)" }.joined(separator: separator) + terminator)
}
