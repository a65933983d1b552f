import Foundation
import GRDB

/// Why a SQLite file could not be opened, read or written: the file, the reason in words and
/// what to do about it. SQLite's result codes never reach users.
///
/// ```swift
/// do {
///     let writer = try SQLiteDatabase.open(path: path, migrator: migrator)
/// } catch let error as SQLiteStorageError {
///     print(error)   // /home/ada/.local/share/shortcuts/runs.sqlite: the disk is full
///                    // help: free some space on the disk that holds /home/ada/.local/share/shortcuts
/// }
/// ```
package struct SQLiteStorageError: Error, CustomStringConvertible, Sendable {
    /// The SQLite file.
    package var path: String
    /// What went wrong.
    package var reason: Reason

    /// What went wrong with a file.
    package enum Reason: Sendable, Equatable {
        /// It is missing, and it is opened for reading only.
        case missing
        /// It cannot be opened, for a reason the file system did not tell.
        case cannotOpen
        /// Its folder does not exist.
        case folderMissing
        /// A folder has its name.
        case isFolder
        /// It is not a SQLite database.
        case notADatabase
        /// It is damaged.
        case corrupt
        /// It, or its folder, is read-only and it had to be written.
        case readOnly
        /// The disk is full.
        case full
        /// Another process kept it locked for longer than the busy timeout.
        case busy
        /// The operating system reported an input/output error.
        case diskIO
        /// Permission was denied.
        case permission
        /// Its schema is older than this program's, and it is opened for reading only.
        case notMigrated
        /// Another failure, in SQLite's words.
        case other(String)
    }

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// Describes any error thrown while using a file.
    ///
    /// - Parameters:
    ///   - error: The error, usually GRDB's `DatabaseError`.
    ///   - path: The file.
    package init(_ error: any Error, path: String) {
        self.path = path
        if let error = error as? SQLiteStorageError {
            self = error
            return
        }
        guard let error = error as? DatabaseError else {
            reason = .other("\(error)")
            return
        }
        if let found = Self.fileSystemReason(path) {
            reason = found
            return
        }
        switch error.resultCode {
        case .SQLITE_CANTOPEN: reason = .cannotOpen
        case .SQLITE_NOTADB: reason = .notADatabase
        case .SQLITE_CORRUPT: reason = .corrupt
        case .SQLITE_READONLY: reason = .readOnly
        case .SQLITE_FULL: reason = .full
        case .SQLITE_BUSY, .SQLITE_LOCKED: reason = .busy
        case .SQLITE_IOERR: reason = .diskIO
        case .SQLITE_PERM, .SQLITE_AUTH: reason = .permission
        default: reason = .other(error.message ?? "\(error.resultCode)")
        }
    }

    /// What is wrong with the path itself, whatever SQLite said: a folder in the file's place
    /// (reported as an I/O error), a missing folder, a folder or file without permission.
    static func fileSystemReason(_ path: String) -> Reason? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            return isDirectory.boolValue ? .isFolder : nil
        }
        let folder = (path as NSString).deletingLastPathComponent
        return FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder) ? nil : .folderMissing
    }

    /// Runs work on a file, describing its errors.
    ///
    /// ```swift
    /// let pool = try SQLiteStorageError.naming(path) { try DatabasePool(path: path) }
    /// ```
    ///
    /// Errors other than SQLite's pass through unchanged.
    package static func naming<T>(_ path: String, _ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let error as DatabaseError {
            throw SQLiteStorageError(error, path: path)
        }
    }

    /// The reason, in words.
    package var explanation: String {
        switch reason {
        case .missing: "the file does not exist"
        case .cannotOpen: "cannot open the file"
        case .folderMissing: "its folder \((path as NSString).deletingLastPathComponent) does not exist"
        case .isFolder: "a folder has the file's name"
        case .notADatabase: "the file is not a SQLite database"
        case .corrupt: "the database file is damaged"
        case .readOnly: "the file or its folder is read-only, and this needs to write to it"
        case .full: "the disk is full"
        case .busy: "another process kept the database locked for more than \(Int(SQLiteDatabase.busyTimeout)) seconds"
        case .diskIO: "the disk reported an input/output error"
        case .permission: "permission denied"
        case .notMigrated: "the file was written by an older version and must be opened once with write access to be upgraded"
        case .other(let message): message
        }
    }

    /// What to do about it.
    package var hint: String {
        let folder = (path as NSString).deletingLastPathComponent
        return switch reason {
        case .missing: "nothing has been recorded there yet"
        case .cannotOpen, .permission: "check that you may read and write \(folder) and the files in it"
        case .folderMissing: "create \(folder), or use another data folder"
        case .isFolder: "move the folder \(path) away; the database is created on next use"
        case .notADatabase, .corrupt: "move \(path) away; a new one is created on next use"
        case .readOnly: "give write permission to \(folder) and the files in it, or use a writable data folder"
        case .full: "free some space on the disk that holds \(folder)"
        case .busy: "try again; if it persists, look for a process that keeps the database busy"
        case .diskIO: "check the disk that holds \(folder), then try again"
        case .notMigrated: "run a command that writes (such as `run`) once with write access"
        case .other: "check \(path), then try again"
        }
    }

    package var description: String {
        "\(path): \(explanation)\nhelp: \(hint)"
    }
}
