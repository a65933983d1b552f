import Foundation

/// A new, empty folder under the system's temporary folder, for a test's `$SHORTCUTS_HOME` or
/// working directory.
///
/// ```swift
/// let home = try TemporaryFolder.make(prefix: "shortcuts-home")
/// ```
public enum TemporaryFolder {
    /// Creates a uniquely named empty folder.
    ///
    /// - Parameter prefix: The start of the folder's name.
    /// - Returns: The folder's URL.
    /// - Throws: The file system's error when the folder cannot be created.
    public static func make(prefix: String = "shortcuts-test") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A unique path under the temporary folder that does not exist yet.
    ///
    /// - Parameter prefix: The start of the name.
    /// - Returns: The path's URL.
    public static func unusedPath(prefix: String = "shortcuts-test") -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }
}
