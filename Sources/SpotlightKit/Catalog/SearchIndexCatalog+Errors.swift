import Foundation
import GRDB
import SQLiteStorage

extension SearchIndexCatalog {
    /// Runs `work` on the index `name`, turning a database error into
    /// ``SpotlightError/indexDatabaseFailure(name:path:reason:)``: words and the index path,
    /// never SQLite's text or the SQL.
    ///
    /// ```swift
    /// let count = try await catalog.explainingDatabaseErrors(of: "library") { try await index.itemCount() }
    /// ```
    func explainingDatabaseErrors<T>(of name: String, _ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let error as DatabaseError {
            let path = directory.appendingPathComponent(name + ".sqlite").path
            throw SpotlightError.indexDatabaseFailure(name: name, path: path, reason: Self.reason(SQLiteStorageError(error, path: path)))
        } catch let error as SQLiteStorageError {
            throw SpotlightError.indexDatabaseFailure(name: name, path: error.path, reason: Self.reason(error))
        }
    }

    /// What went wrong opening an index file, in words: SQLiteStorage classifies the failure, this says it for an index.
    static func reason(_ error: SQLiteStorageError) -> String {
        switch error.reason {
        case .busy: "another process kept it (or the app's data) locked for too long; try again"
        case .readOnly: "it is read-only, and this needs to write to it; make the folder and the file writable"
        case .cannotOpen, .missing, .folderMissing: "the file cannot be opened; check that its folder exists and can be read"
        case .permission: "permission denied"
        case .corrupt, .notADatabase: "the file is damaged or is not an index; delete it and rebuild the index"
        case .full: "the disk is full"
        case .diskIO: "the disk could not be read or written"
        case .isFolder, .notMigrated: error.explanation + "; " + error.hint
        case .other: "the database reported an unexpected error"
        }
    }
}
