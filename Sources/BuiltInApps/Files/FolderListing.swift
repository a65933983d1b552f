import Foundation

/// The entries of a folder, and of its subfolders when asked, as file entities.
///
/// Symbolic links are listed but never followed into, so a link to a parent folder cannot
/// make a walk loop. In a recursive walk, a subfolder that cannot be read is left out; the
/// folder asked for must be readable.
///
/// ```swift
/// let files = try FolderListing.entries(of: URL(fileURLWithPath: "/var/log"), recursive: true)
/// ```
enum FolderListing {
    /// Lists a folder.
    ///
    /// - Parameters:
    ///   - folder: The folder.
    ///   - recursive: Whether to list the entries of its subfolders too, at any depth.
    ///   - includes: Which entries to keep, by name (every entry is still walked into).
    /// - Returns: The entries kept, sorted by path.
    /// - Throws: ``FilesApp/FileError`` when the folder is missing, is a file or cannot be read.
    static func entries(of folder: URL, recursive: Bool, includes: (String) -> Bool = { _ in true }) throws -> [FilesApp.FileEntity] {
        let path = folder.standardizedFileURL.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw FilesApp.FileError.notFound(path: path) }
        guard isFolder.boolValue else { throw FilesApp.FileError.notFolder(path: path) }
        var found: [FilesApp.FileEntity] = []
        try walk(folder.standardizedFileURL, recursive: recursive, isRoot: true, includes: includes, into: &found)
        return found.sorted { $0.id < $1.id }
    }

    private static func walk(
        _ folder: URL, recursive: Bool, isRoot: Bool, includes: (String) -> Bool, into found: inout [FilesApp.FileEntity]
    ) throws {
        guard let directory = opendir(folder.path) else {
            if isRoot { throw FilesApp.FileError.system(errno, operation: "list", path: folder.path) }
            return
        }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(directory)
        for name in names {
            let url = folder.appendingPathComponent(name)
            guard let entity = try? FilesApp.FileEntity(at: url) else { continue }  // removed meanwhile
            if includes(name) { found.append(entity) }
            if recursive && entity.isDirectory && !isSymbolicLink(url.path) {
                try walk(url, recursive: true, isRoot: false, includes: includes, into: &found)
            }
        }
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }
}
