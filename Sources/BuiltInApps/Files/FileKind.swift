import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What is at a path, as the Files actions see it: a regular file, a folder, or a special file
/// (a FIFO, a device, a socket) that they refuse.
///
/// Reading a FIFO waits for a writer, reading `/dev/zero` never ends, and replacing
/// `/dev/null` with a regular file breaks the system: the actions work on regular files and
/// folders only, and name the kind of anything else.
///
/// ```swift
/// try FileKind.requireOrdinary("/dev/null", operation: "write")
/// // FileError.specialFile: "/dev/null is a character device, not a regular file or folder: …"
/// ```
enum FileKind: Equatable {
    /// A regular file.
    case regular
    /// A folder.
    case folder
    /// A special file, named in words (`a FIFO (named pipe)`, `a character device`).
    case special(String)

    /// The kind of what is at a path, following symbolic links; `nil` when nothing is there
    /// (or a link points nowhere).
    static func at(_ path: String) -> FileKind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileKind(mode: info.st_mode)
    }

    /// The kind a `stat` mode names.
    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .folder
        case S_IFIFO: self = .special("a FIFO (named pipe)")
        case S_IFCHR: self = .special("a character device")
        case S_IFBLK: self = .special("a block device")
        case S_IFSOCK: self = .special("a socket")
        default: self = .special("a special file")
        }
    }

    /// Throws when what is at `path` is a special file; nothing there, a file or a folder pass.
    ///
    /// - Parameters:
    ///   - path: The path, links followed.
    ///   - operation: What the action would do, as a verb (`read`, `write`, `copy`).
    /// - Throws: ``FilesApp/FileError/specialFile(path:kind:operation:)``.
    static func requireOrdinary(_ path: String, operation: String) throws {
        if case .special(let kind) = at(path) { throw FilesApp.FileError.specialFile(path: path, kind: kind, operation: operation) }
    }
}
