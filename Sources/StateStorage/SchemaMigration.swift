/// One step of a store's schema in PostgreSQL, applied once per database, in order, by the
/// first process that finds it missing (SQLite files keep their GRDB migrators).
///
/// Names are unique across every store sharing the database, so each starts with its store:
/// `"runs v1: runs and steps"`, `"automations v1: claims and leases"`.
///
/// ```swift
/// static let postgresMigrations = [
///     SchemaMigration(name: "notes v1: notes", sql: "CREATE TABLE note (id bigserial PRIMARY KEY, text text NOT NULL)")
/// ]
/// ```
public struct SchemaMigration: Sendable, Hashable {
    /// The migration's unique name, recorded once it is applied.
    public var name: String
    /// Its statements, separated by semicolons, run in one transaction.
    public var sql: String

    public init(name: String, sql: String) {
        self.name = name
        self.sql = sql
    }
}

extension StateDatabase {
    /// Throws, with the fix, when a PostgreSQL database lacks some of a store's migrations
    /// (recorded by name in `shortcuts_migration` as they are applied).
    ///
    /// ```swift
    /// try database.requireMigrations(RunHistory.postgresMigrations, of: "the run history", openedWith: "RunHistory.postgresMigrations")
    /// ```
    ///
    /// - Parameters:
    ///   - migrations: The store's migrations.
    ///   - store: The store, for the message: `the run history`.
    ///   - list: The name of the store's list of migrations, for the fix.
    public func requireMigrations(_ migrations: [SchemaMigration], of store: String, openedWith list: String) throws {
        let applied = try read { connection in
            Set(try connection.rows("SELECT name FROM shortcuts_migration", []).compactMap { $0.text("name") })
        }
        let missing = migrations.map(\.name).filter { !applied.contains($0) }
        guard missing.isEmpty else {
            throw StateDatabaseError(
                location: location,
                reason: "\(store)'s tables are missing (\(missing.map { "'\($0)'" }.joined(separator: ", ")) not applied)\n"
                    + "help: open the database with \(list) among its migrations")
        }
    }
}
