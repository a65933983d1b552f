import Foundation
import ShortcutsSystemTestSupport
import StateStorage
import WorkflowKit

#if PostgreSQL
    import PostgresStorage
#endif

/// A store the run history is tested on: a new, empty database for each test.
enum HistoryStore: String, CustomStringConvertible, Sendable {
    case sqlite
    case postgres

    /// The stores this machine and build can test: SQLite always, PostgreSQL when its server
    /// is installed and the build has the `PostgreSQL` trait (see `PostgresServer.skipReason`).
    static var available: [HistoryStore] { PostgresServer.isAvailable ? [.sqlite, .postgres] : [.sqlite] }

    var description: String { rawValue }

    /// A new, empty database with the history's schema.
    func makeDatabase() throws -> any StateDatabase {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return try SQLiteStateDatabase(path: folder.appendingPathComponent("runs.sqlite").path, migrator: RunHistory.migrator)
        case .postgres:
            #if PostgreSQL
                return try PostgresStateDatabase(url: PostgresServer.shared().makeDatabase(), migrations: RunHistory.postgresMigrations)
            #else
                throw StateDatabaseError(location: "PostgreSQL", reason: PostgresServer.missingPiece ?? "needs a build with PostgreSQL support")
            #endif
        }
    }
}
