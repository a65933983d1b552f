import Foundation

/// Where ``FilesApp/Copy`` and ``FilesApp/Move`` put an item, and how they replace what is there.
///
/// - A destination that is an existing folder, or is written with a final `/`, receives the
///   item under its own name (`Copy report.pdf → ~/Archive` makes `~/Archive/report.pdf`); any
///   other destination is the item's new path. The folder the item goes in must exist, unless
///   `createFolders: true`, which creates it and the folders above it.
/// - Something already at the final path is an error unless `overwrite: true`; then it is
///   replaced only once the new item is complete beside it (a temporary `.NAME.XXXXXX` in the
///   same folder, renamed over it).
/// - An item cannot be put onto itself or inside itself.
/// - A special file (a FIFO, a device, a socket) is neither copied or moved nor replaced.
///
/// ```swift
/// let target = try FileTransfer.target(for: source, destination: "~/Archive/2026/", overwrite: false, createFolders: true)
/// ```
enum FileTransfer {
    /// The final path of an item copied or moved to a destination.
    ///
    /// - Throws: ``FilesApp/FileError`` when the source is missing, the destination's folder is
    ///   missing, the final path exists without `overwrite`, or it is the source or inside it.
    static func target(for source: URL, destination written: String, overwrite: Bool, createFolders: Bool) throws -> URL {
        let destination = FilePath.resolve(written)
        var info = stat()
        guard lstat(source.path, &info) == 0 else { throw FilesApp.FileError.system(errno, operation: "read", path: source.path) }
        if case .special(let kind) = FileKind(mode: info.st_mode) {
            throw FilesApp.FileError.specialFile(path: source.path, kind: kind, operation: "copy or move")
        }
        var isFolder: ObjCBool = false
        var target = destination
        if written.hasSuffix("/") {
            try AtomicFileWriter.prepare(folder: destination, for: destination.path, createFolders: createFolders)
            target = destination.appendingPathComponent(source.lastPathComponent)
        } else if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isFolder), isFolder.boolValue,
            destination.path != source.path
        {
            target = destination.appendingPathComponent(source.lastPathComponent)
        }
        if target.path == source.path || target.path.hasPrefix(source.path + "/") {
            throw FilesApp.FileError.sameItem(source: source.path, destination: target.path)
        }
        try AtomicFileWriter.prepare(folder: target.deletingLastPathComponent(), for: target.path, createFolders: createFolders)
        if lstat(target.path, &info) == 0 {
            if case .special(let kind) = FileKind(mode: info.st_mode) {
                throw FilesApp.FileError.specialFile(path: target.path, kind: kind, operation: "replace")
            }
            guard overwrite else { throw FilesApp.FileError.alreadyExists(path: target.path, help: "set overwrite: true to replace it") }
        }
        return target
    }

    /// Copies an item beside the target, then puts it in place.
    static func copy(_ source: URL, to target: URL) throws {
        try refuseSpecialFiles(inside: source)
        let temporary = temporaryPath(beside: target)
        do {
            try FileManager.default.copyItem(at: source, to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw FilesApp.FileError.from(error, operation: "copy \(source.path) to", path: target.path)
        }
        try install(temporary, at: target)
    }

    /// Moves an item: a rename on one file system, a copy and a removal across two.
    static func move(_ source: URL, to target: URL) throws {
        if rename(source.path, target.path) == 0 { return }
        let code = errno
        guard code == EXDEV || code == EISDIR || code == ENOTEMPTY || code == ENOTDIR || code == EEXIST else {
            throw FilesApp.FileError.system(code, operation: "move \(source.path) to", path: target.path)
        }
        if code == EXDEV {
            try copy(source, to: target)
        } else {
            let temporary = temporaryPath(beside: target)
            guard rename(source.path, temporary.path) == 0 else {
                throw FilesApp.FileError.system(errno, operation: "move \(source.path) to", path: target.path)
            }
            try install(temporary, at: target)
            return
        }
        do {
            try FileManager.default.removeItem(at: source)
        } catch {
            throw FilesApp.FileError.from(error, operation: "remove the moved", path: source.path)
        }
    }

    /// Renames a finished item over the target; a folder or an item of another kind there is
    /// set aside first and removed once the new item is in place.
    private static func install(_ temporary: URL, at target: URL) throws {
        if rename(temporary.path, target.path) == 0 {
            AtomicFileWriter.syncFolder(target.deletingLastPathComponent())
            return
        }
        let aside = temporaryPath(beside: target)
        guard rename(target.path, aside.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw FilesApp.FileError.system(code, operation: "replace", path: target.path)
        }
        guard rename(temporary.path, target.path) == 0 else {
            let code = errno
            rename(aside.path, target.path)
            try? FileManager.default.removeItem(at: temporary)
            throw FilesApp.FileError.system(code, operation: "replace", path: target.path)
        }
        try? FileManager.default.removeItem(at: aside)
        AtomicFileWriter.syncFolder(target.deletingLastPathComponent())
    }

    /// Throws when a folder holds a special file anywhere in its tree (links are not followed),
    /// before anything is copied.
    private static func refuseSpecialFiles(inside folder: URL) throws {
        guard FileKind.at(folder.path) == .folder, let walker = FileManager.default.enumerator(atPath: folder.path) else { return }
        for case let relative as String in walker {
            let path = folder.appendingPathComponent(relative).path
            var info = stat()
            if lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFLNK, case .special(let kind) = FileKind(mode: info.st_mode) {
                throw FilesApp.FileError.specialFile(path: path, kind: kind, operation: "copy")
            }
        }
    }

    private static func temporaryPath(beside target: URL) -> URL {
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        return target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(suffix)")
    }
}
