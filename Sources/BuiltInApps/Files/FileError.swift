import Foundation
import IntentKit

extension FilesApp {
    /// Why a file action failed, naming the path and saying the cause in words.
    ///
    /// ```swift
    /// throw FilesApp.FileError.notFound(path: "/home/ada/notes.txt")
    /// // "There is no file or folder at /home/ada/notes.txt."
    /// ```
    public enum FileError: Swift.Error, CustomLocalizedStringResourceConvertible, Equatable {
        /// Nothing exists at the path.
        case notFound(path: String)
        /// The folder a file should go in does not exist.
        case folderMissing(path: String, folder: String, help: String)
        /// The path is a folder where a file is expected.
        case isFolder(path: String)
        /// The path is a file where a folder is expected.
        case notFolder(path: String)
        /// Something already exists at the path and the action does not replace it.
        case alreadyExists(path: String, help: String)
        /// The operating system refused an operation; `cause` says why in words.
        case failed(operation: String, path: String, cause: String)
        /// A `find` of files names no folder to look in.
        case noFolderToSearch
        /// A copy or move onto itself or into itself.
        case sameItem(source: String, destination: String)
        /// A FIFO, a device or a socket where a regular file or a folder is expected.
        case specialFile(path: String, kind: String, operation: String)
        /// A file larger than an action reads into memory.
        case tooLarge(path: String, size: Int, limit: Int, help: String)

        public var localizedStringResource: LocalizedStringResource {
            switch self {
            case .notFound(let path): "There is no file or folder at \(path)."
            case .folderMissing(let path, let folder, let help): "Cannot write \(path): the folder \(folder) does not exist (\(help))."
            case .isFolder(let path): "\(path) is a folder, not a file."
            case .notFolder(let path): "\(path) is a file, not a folder."
            case .alreadyExists(let path, let help): "\(path) already exists (\(help))."
            case .failed(let operation, let path, let cause): "Cannot \(operation) \(path): \(cause)."
            case .noFolderToSearch:
                "Finding files needs a folder to look in: add folder: { equalTo: ~/Downloads } for the files in a folder, or folder: { hasPrefix: ~/Downloads } for its whole tree."
            case .sameItem(let source, let destination): "Cannot put \(source) at \(destination): it is the same item or inside it."
            case .specialFile(let path, let kind, let operation):
                "Cannot \(operation) \(path): it is \(kind), not a regular file or folder (the Files actions leave special files alone; use Shell.RunCommand to work with one)."
            case .tooLarge(let path, let size, let limit, let help):
                "Cannot read \(path): it is \(size) bytes, more than the \(limit / 1_048_576) MiB this action reads into memory (\(help))."
            }
        }

        /// An error for a failed system call, from its `errno`.
        ///
        /// - Parameters:
        ///   - code: The `errno` value.
        ///   - operation: What was being done, as a verb phrase (`write`, `read`, `delete`).
        ///   - path: The path it was done to.
        /// - Returns: The error, its cause in words (`the disk is full`, `permission denied`).
        static func system(_ code: Int32, operation: String, path: String) -> FileError {
            switch code {
            case ENOENT: .notFound(path: path)
            case EISDIR: .isFolder(path: path)
            case ENOTDIR: .failed(operation: operation, path: path, cause: "a part of the path is a file, not a folder")
            default: .failed(operation: operation, path: path, cause: cause(of: code))
            }
        }

        /// The cause of an `errno` value in words.
        static func cause(of code: Int32) -> String {
            switch code {
            case EACCES, EPERM: "permission denied"
            case ENOSPC: "the disk is full"
            case EDQUOT: "the disk quota is exceeded"
            case EFBIG: "the file is larger than the file size limit allows"
            case EROFS: "the file system is read-only"
            case EEXIST: "it already exists"
            case ENOTEMPTY: "the folder is not empty"
            case ENAMETOOLONG: "the name is too long"
            case ELOOP: "it has too many symbolic links in a loop"
            case EMFILE, ENFILE: "too many files are open"
            case EIO: "an input/output error occurred on the device"
            case EBUSY: "it is in use"
            case EXDEV: "it is on another file system"
            default: String(cString: strerror(code)).lowercased()
            }
        }

        /// The error behind a Foundation file error, naming the path.
        static func from(_ error: any Swift.Error, operation: String, path: String) -> FileError {
            if let known = error as? FileError { return known }
            let nsError = error as NSError
            if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
                return system(Int32(underlying.code), operation: operation, path: path)
            }
            if nsError.domain == NSPOSIXErrorDomain { return system(Int32(nsError.code), operation: operation, path: path) }
            switch CocoaError.Code(rawValue: nsError.code) {
            case .fileNoSuchFile, .fileReadNoSuchFile: return .notFound(path: path)
            case .fileReadNoPermission, .fileWriteNoPermission: return .failed(operation: operation, path: path, cause: "permission denied")
            case .fileWriteOutOfSpace: return .failed(operation: operation, path: path, cause: "the disk is full")
            case .fileWriteFileExists: return .alreadyExists(path: path, help: "set overwrite: true to replace it")
            case .fileWriteVolumeReadOnly: return .failed(operation: operation, path: path, cause: "the file system is read-only")
            default: return .failed(operation: operation, path: path, cause: nsError.localizedDescription)
            }
        }
    }
}
