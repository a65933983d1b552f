import Foundation
import IntentKit

/// How the Files app reads the paths it is given.
///
/// - `~` and `~/…` are the home folder (`$HOME`), `~user/…` another user's.
/// - An absolute path is used as written.
/// - A relative path is relative to the folder of the workflow file being run (so a workflow
///   touches the same files whether `shortcuts run` starts it from a terminal or the daemon
///   starts it from `/`), and to the current directory when no workflow is running
///   (`shortcuts perform`).
///
/// ```swift
/// FilePath.resolve("~/Downloads")        // /home/ada/Downloads
/// FilePath.resolve("backups/today.tar")  // <the workflow's folder>/backups/today.tar
/// ```
enum FilePath {
    /// The absolute, standardized file URL of a path as written by a person.
    ///
    /// - Parameters:
    ///   - text: The path.
    ///   - base: The folder relative paths are resolved against; the workflow's folder
    ///     (``IntentExecution/workingDirectory``), else the current directory.
    /// - Returns: The file URL, with `.` and `..` components removed.
    static func resolve(_ text: String, relativeTo base: URL? = nil) -> URL {
        let expanded = HomeFolder.expandingTilde(text)
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL }
        let folder = base ?? IntentExecution.workingDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return folder.appendingPathComponent(expanded).standardizedFileURL
    }

}
