import Foundation

/// Where Shortcuts keeps its data: `$SHORTCUTS_HOME`, else `$XDG_DATA_HOME/shortcuts`, else
/// `~/.local/share/shortcuts`. One SQLite file per concern lives there, created on first use.
///
/// ```swift
/// let databaseURL = try ShortcutsHome.file(named: "library.sqlite")
/// ```
public enum ShortcutsHome {
    /// The data folder for an environment (the process's by default); not created.
    public static func directory(environment: [String: String] = ProcessEnvironment.current) -> URL {
        if let home = environment["SHORTCUTS_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: HomeFolder.expandingTilde(home, environment: environment), isDirectory: true)
        }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("shortcuts", isDirectory: true)
        }
        let home = HomeFolder.path(environment: environment)
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share/shortcuts", isDirectory: true)
    }

    /// A file in the data folder, creating the folder if needed.
    ///
    /// - Parameter name: The file's name, such as `library.sqlite`.
    /// - Returns: The file's URL.
    /// - Throws: ``ShortcutsHomeError`` naming the folder and why it cannot be used.
    public static func file(named name: String) throws -> URL {
        let folder = directory()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw ShortcutsHomeError(path: folder.path, reason: "it is a file, not a folder")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let reason = underlying.map { String(cString: strerror(Int32($0.code))).lowercased() } ?? "it cannot be created"
            throw ShortcutsHomeError(path: folder.path, reason: reason)
        }
        return folder.appendingPathComponent(name)
    }
}

/// The data folder cannot be used: its path, and why.
///
/// ```swift
/// // SHORTCUTS_HOME=/etc/hosts
/// try ShortcutsHome.file(named: "library.sqlite")   // cannot use the data folder /etc/hosts: it is a file, not a folder
/// ```
public struct ShortcutsHomeError: Error, CustomStringConvertible, Sendable {
    /// The folder's path.
    public var path: String
    /// Why it cannot be used.
    public var reason: String

    public var description: String { "cannot use the data folder \(path): \(reason)" }
}
