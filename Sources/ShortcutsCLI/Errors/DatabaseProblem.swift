import Foundation
import GRDB
import IntentKit

/// A SQLite failure in words, naming the data folder, instead of `SQLite error 14`.
///
/// ```
/// error: a database in /home/ada/.local/share/shortcuts cannot be opened (unable to open database file)
/// help: check that the data folder and its .sqlite files can be read and written, or set SHORTCUTS_HOME to another folder
/// ```
enum DatabaseProblem {
    /// The command line's error for a database error, or `nil` for other errors.
    static func report(for error: any Error) -> CommandLineError? {
        guard let error = error as? DatabaseError else { return nil }
        let folder = ShortcutsHome.directory().path
        let detail = error.message.map { " (\($0))" } ?? ""
        let reason: String
        var help = "check that the data folder and its .sqlite files can be read and written, or set SHORTCUTS_HOME to another folder"
        switch error.resultCode.primaryResultCode {
        case .SQLITE_CANTOPEN: reason = "cannot be opened"
        case .SQLITE_NOTADB:
            reason = "is not a SQLite database"
            help = "move the file that is not a database out of the data folder; it is created afresh"
        case .SQLITE_CORRUPT:
            reason = "is damaged"
            help = "move the damaged .sqlite file out of the data folder; it is created afresh"
        case .SQLITE_READONLY: reason = "is read-only"
        case .SQLITE_PERM, .SQLITE_AUTH: reason = "cannot be used: permission denied"
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            reason = "is busy: another process holds it"
            help = "try again when the other command has finished"
        case .SQLITE_FULL:
            reason = "cannot grow: the disk is full"
            help = "free some disk space"
        case .SQLITE_IOERR: reason = "could not be read or written by the disk"
        default: reason = "failed"
        }
        return CommandLineError("a database in \(folder) \(reason)\(detail)", help: [help])
    }
}
