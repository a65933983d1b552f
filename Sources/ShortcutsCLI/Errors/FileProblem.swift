import Foundation

/// A file or folder the command line cannot use, in words: the path, the reason and a hint.
///
/// ```
/// error: cannot read --input-path answers.json: no such file
/// help: give the path of a JSON object of input values, or - for standard input
/// ```
struct FileProblem: Error, CustomStringConvertible {
    /// What the path is for, such as `--input-path` or `the workflow`.
    var role: String
    /// The path as given.
    var path: String
    /// Why it cannot be used, in words.
    var reason: String
    /// How to fix it.
    var hint: String?
    /// Whether the path was to be written (or read).
    var isWrite: Bool

    init(role: String, path: String, reason: String, hint: String?, isWrite: Bool = false) {
        self.role = role
        self.path = path
        self.reason = reason
        self.hint = hint
        self.isWrite = isWrite
    }

    var description: String { "cannot \(isWrite ? "write" : "read") \(role) \(path): \(reason)" }

    /// Checks that a path names a readable file.
    ///
    /// - Throws: ``CommandLineError`` naming the path, the reason and the hint.
    static func checkReadableFile(_ path: String, role: String, hint: String?) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw CommandLineError(FileProblem(role: role, path: path, reason: reason(errno), hint: hint))
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw CommandLineError(FileProblem(role: role, path: path, reason: "it is a folder, not a file", hint: hint))
        }
        if access(path, R_OK) != 0 {
            throw CommandLineError(FileProblem(role: role, path: path, reason: reason(errno), hint: hint))
        }
    }

    /// Checks that a file can be written at a path: its folder exists and is writable, and the
    /// path is not a folder.
    ///
    /// - Throws: ``CommandLineError`` naming the path, the reason and the hint.
    static func checkWritableFile(_ path: String, role: String, hint: String?) throws {
        var status = stat()
        if stat(path, &status) == 0 {
            if (status.st_mode & S_IFMT) == S_IFDIR {
                throw CommandLineError(FileProblem(role: role, path: path, reason: "it is a folder, not a file", hint: hint, isWrite: true))
            }
            if access(path, W_OK) != 0 {
                throw CommandLineError(FileProblem(role: role, path: path, reason: reason(errno), hint: hint, isWrite: true))
            }
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        let parent = folder.isEmpty ? "." : folder
        guard stat(parent, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw CommandLineError(FileProblem(role: role, path: path, reason: "its folder \(parent) does not exist", hint: hint, isWrite: true))
        }
        if access(parent, W_OK) != 0 {
            throw CommandLineError(FileProblem(role: role, path: path, reason: "its folder \(parent): \(reason(errno))", hint: hint, isWrite: true))
        }
    }

    /// The system's words for an error number, such as `no such file or directory`.
    static func reason(_ number: Int32) -> String {
        switch number {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case ENOTDIR: return "a part of the path is a file, not a folder"
        case EISDIR: return "it is a folder, not a file"
        default: return String(cString: strerror(number)).lowercased()
        }
    }

    /// A Foundation file error in words, when it is one; `nil` for other errors.
    init?(_ error: any Error) {
        let error = error as NSError
        guard error.domain == NSCocoaErrorDomain || error.domain == NSPOSIXErrorDomain else { return nil }
        let path = error.userInfo[NSFilePathErrorKey] as? String ?? (error.userInfo[NSURLErrorKey] as? URL)?.path ?? ""
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        var reason: String
        if error.domain == NSPOSIXErrorDomain {
            reason = Self.reason(Int32(error.code))
        } else if let underlying, underlying.domain == NSPOSIXErrorDomain {
            reason = Self.reason(Int32(underlying.code))
        } else {
            switch CocoaError.Code(rawValue: error.code) {
            case .fileNoSuchFile, .fileReadNoSuchFile: reason = "no such file"
            case .fileReadNoPermission, .fileWriteNoPermission: reason = "permission denied"
            case .fileWriteFileExists: reason = "a file is in the way"
            case .fileReadInapplicableStringEncoding, .fileReadUnknownStringEncoding: reason = "it is not UTF-8 text"
            case .fileWriteOutOfSpace: reason = "the disk is full"
            case .fileWriteVolumeReadOnly: reason = "the file system is read-only"
            case .fileReadCorruptFile: reason = "its content is not in the expected format"
            default: reason = "the file system refused (code \(error.code))"
            }
        }
        self.init(role: "the file", path: path.isEmpty ? "(unnamed)" : path, reason: reason, hint: nil)
    }
}

extension CommandLineError {
    init(_ problem: FileProblem) {
        self.init(problem.description, help: problem.hint.map { [$0] } ?? [])
    }
}
