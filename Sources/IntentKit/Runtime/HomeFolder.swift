import Foundation

/// The home folder, and paths that start with `~`, as a shell reads them: `~` is `$HOME` (the
/// passwd entry's folder only when `HOME` is unset or empty), `~user` is that user's folder.
///
/// ```swift
/// HomeFolder.path                          // /home/ada
/// HomeFolder.expandingTilde("~/Downloads") // /home/ada/Downloads
/// HomeFolder.expandingTilde("~bob/notes")  // /home/bob/notes
/// HomeFolder.expandingTilde("notes/~")     // notes/~ (unchanged)
/// ```
public enum HomeFolder {
    /// The home folder of the work running in this task: its `HOME`, else the passwd entry's.
    public static var path: String { path(environment: ProcessEnvironment.current) }

    /// The home folder for an environment: its `HOME`, else the passwd entry's.
    public static func path(environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return FileManager.default.homeDirectoryForCurrentUser.path
    }

    /// A path with a leading `~` or `~user` replaced by the home folder; any other path as written.
    ///
    /// - Parameters:
    ///   - text: The path, as a person wrote it.
    ///   - environment: Whose `HOME` `~` stands for: the task's by default.
    public static func expandingTilde(_ text: String, environment: [String: String] = ProcessEnvironment.current) -> String {
        guard text.hasPrefix("~") else { return text }
        if text == "~" || text.hasPrefix("~/") { return path(environment: environment) + text.dropFirst() }
        // `~user/…`: that user's folder from the passwd database.
        return (text as NSString).expandingTildeInPath
    }
}
