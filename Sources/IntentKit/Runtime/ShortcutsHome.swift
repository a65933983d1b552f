import Foundation

/// Where Shortcuts keeps its data: `$SHORTCUTS_HOME`, else `$XDG_DATA_HOME/shortcuts`, else
/// `~/.local/share/shortcuts`. One SQLite file per concern lives there, created on first use.
///
/// ```swift
/// let databaseURL = try ShortcutsHome.file(named: "library.sqlite")
/// ```
public enum ShortcutsHome {
    /// The data folder for an environment (the process's by default); not created.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let home = environment["SHORTCUTS_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: (home as NSString).expandingTildeInPath, isDirectory: true)
        }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("shortcuts", isDirectory: true)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share/shortcuts", isDirectory: true)
    }

    /// A file in the data folder, creating the folder if needed.
    ///
    /// - Parameter name: The file's name, such as `library.sqlite`.
    /// - Returns: The file's URL.
    /// - Throws: The file system's error when the folder cannot be created.
    public static func file(named name: String) throws -> URL {
        let folder = directory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name)
    }
}
