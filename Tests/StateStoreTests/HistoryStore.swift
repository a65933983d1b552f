import Foundation
import StateStorage
import WorkflowKit

/// A store the run history is tested on: a new, empty database for each test.
enum HistoryStore: String, CustomStringConvertible, Sendable {
    case sqlite
    case postgres

    /// The stores this machine and build can test: SQLite always.
    static var available: [HistoryStore] { [.sqlite] }

    var description: String { rawValue }

    func makeDatabase() throws -> any StateDatabase {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return try SQLiteStateDatabase(path: folder.appendingPathComponent("runs.sqlite").path, migrator: RunHistory.migrator)
        case .postgres:
            fatalError("PostgreSQL is not available in this build")
        }
    }
}
