import Foundation

/// The environment variables the engine reads: the process's, unless a caller runs the work
/// with others, as a test running commands in its own process does (each with its own
/// `SHORTCUTS_HOME`).
///
/// ```swift
/// let home = ProcessEnvironment.current["SHORTCUTS_HOME"]
///
/// try await ProcessEnvironment.$current.withValue(["SHORTCUTS_HOME": folder.path]) {
///     try await command.run()
/// }
/// ```
public enum ProcessEnvironment {
    /// The variables of the work running in this task.
    @TaskLocal public static var current: [String: String] = ProcessInfo.processInfo.environment
}
