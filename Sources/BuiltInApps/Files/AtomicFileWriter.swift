import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes a file so that it is either entirely the old file or entirely the new one.
///
/// The new contents go to a temporary file in the same folder (`.NAME.XXXXXX`), which is
/// flushed to disk with `fsync` and then renamed over the file; the folder is flushed too.
/// When writing fails — the disk is full, the file size limit is reached, permission is
/// denied — the temporary file is removed and the old file is left as it was. An appended
/// file is copied into the temporary file first, so appending costs a copy of the file.
/// `mode: new` puts the file in place with `link(2)`, which refuses to replace a file that
/// appeared meanwhile. The file keeps the permissions (and, where allowed, the owner) of the
/// file it replaces; a new file gets `0666` less the process's umask. A symbolic link is
/// written through: its target is replaced, the link stays. A FIFO, a device or a socket is
/// refused (``FileKind``), never replaced.
///
/// ```swift
/// try AtomicFileWriter.write(Data("hello\n".utf8), to: url, mode: .overwrite, createFolders: false)
/// ```
enum AtomicFileWriter {
    /// Writes data to a file.
    ///
    /// - Parameters:
    ///   - data: The bytes to write (after the old ones when appending).
    ///   - url: The file.
    ///   - mode: What to do with an existing file.
    ///   - createFolders: Whether to create the missing folders of the path.
    /// - Throws: ``FilesApp/FileError`` naming the path and the cause.
    static func write(_ data: Data, to url: URL, mode: FilesApp.WriteMode, createFolders: Bool) throws {
        _ = ignoreFileSizeSignal
        var url = url
        var existing = stat()
        if lstat(url.path, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFLNK {
            url = url.resolvingSymlinksInPath()  // a link is written through, not replaced
        }
        let path = url.path
        let exists = lstat(path, &existing) == 0
        if exists, case .folder = FileKind(mode: existing.st_mode) { throw FilesApp.FileError.isFolder(path: path) }
        if exists, case .special(let kind) = FileKind(mode: existing.st_mode) {
            throw FilesApp.FileError.specialFile(path: path, kind: kind, operation: "write")
        }
        if exists && mode == .new {
            throw FilesApp.FileError.alreadyExists(path: path, help: "mode: new never replaces a file; use mode: overwrite or append")
        }
        let folder = url.deletingLastPathComponent()
        try prepare(folder: folder, for: path, createFolders: createFolders)

        var template = Array(folder.appendingPathComponent(".\(url.lastPathComponent).XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw FilesApp.FileError.system(errno, operation: "write", path: path) }
        let temporary = String(cString: template)
        var installed = false
        defer {
            if !installed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            let permissions = exists ? existing.st_mode & 0o7777 : 0o666 & ~currentUmask
            fchmod(descriptor, permissions)
            if exists { _ = fchown(descriptor, existing.st_uid, existing.st_gid) }  // allowed to root and the file's owner
            if mode == .append && exists { try copyContents(of: path, to: descriptor) }
            try writeAll(data, to: descriptor, path: path)
            guard fsync(descriptor) == 0 else { throw FilesApp.FileError.system(errno, operation: "write", path: path) }
        }
        if mode == .new {
            if link(temporary, path) != 0 {
                let code = errno
                if code == EEXIST {
                    throw FilesApp.FileError.alreadyExists(path: path, help: "mode: new never replaces a file; use mode: overwrite or append")
                }
                // File systems without hard links: the existence check above is all there is.
                guard rename(temporary, path) == 0 else { throw FilesApp.FileError.system(errno, operation: "write", path: path) }
            }
        } else {
            guard rename(temporary, path) == 0 else { throw FilesApp.FileError.system(errno, operation: "write", path: path) }
        }
        installed = true
        if mode == .new { unlink(temporary) }
        syncFolder(folder)
    }

    /// Checks, or creates, the folder a file goes in.
    static func prepare(folder: URL, for path: String, createFolders: Bool) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw FilesApp.FileError.notFolder(path: folder.path) }
            return
        }
        guard createFolders else {
            throw FilesApp.FileError.folderMissing(path: path, folder: folder.path, help: "set createFolders: true to create it")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw FilesApp.FileError.from(error, operation: "create the folder", path: folder.path)
        }
    }

    private static func copyContents(of path: String, to descriptor: Int32) throws {
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw FilesApp.FileError.system(errno, operation: "read", path: path) }
        defer { close(source) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw FilesApp.FileError.system(errno, operation: "read", path: path) }
            if count == 0 { return }
            try writeAll(Data(buffer[0..<count]), to: descriptor, path: path)
        }
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw FilesApp.FileError.system(written < 0 ? errno : EIO, operation: "write", path: path) }
                offset += written
            }
        }
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(descriptor, bytes, count)
        #else
            Musl.write(descriptor, bytes, count)
        #endif
    }

    /// Flushes a folder's entries, so a rename survives a power cut.
    static func syncFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The process's umask, read without changing it (`/proc/self/status`), `022` when unknown.
    private static var currentUmask: mode_t {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let mask = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        else { return 0o022 }
        return mask
    }

    /// A write past the file size limit (`ulimit -f`) fails with `EFBIG` instead of killing
    /// the process with `SIGXFSZ`, so the failure is reported and the old file kept.
    private static let ignoreFileSizeSignal: Void = {
        signal(SIGXFSZ, SIG_IGN)
    }()
}
