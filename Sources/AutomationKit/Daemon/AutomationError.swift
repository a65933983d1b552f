/// Why the automation daemon could not start or keep its state.
///
/// ```swift
/// do {
///     try await daemon.run()
/// } catch let error as AutomationError {
///     print("error: \(error)")
/// }
/// ```
public enum AutomationError: Error, CustomStringConvertible, Sendable {
    /// The workflows folder does not exist or is not a folder.
    case noFolder(String)
    /// The daemon's lock file could not be created or locked.
    case lock(String)
    /// A state file could not be opened.
    case store(String, underlying: String)

    public var description: String {
        switch self {
        case .noFolder(let path):
            "no workflows folder '\(path)'\nhelp: pass --workflows DIR, a folder of workflow files with automation: blocks"
        case .lock(let message):
            message
        case .store(let path, let underlying):
            "cannot open \(path): \(underlying)"
        }
    }
}
