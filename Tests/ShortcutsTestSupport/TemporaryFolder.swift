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

    /// Writes text files below a folder, making the folders on their paths.
    ///
    /// ```swift
    /// try TemporaryFolder.write(["Downloads/cat.jpg": "jpeg"], in: folder)
    /// ```
    ///
    /// - Parameters:
    ///   - files: Each file's text by its path below `folder`.
    ///   - folder: The folder.
    public static func write(_ files: [String: String], in folder: URL) throws {
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }
}
