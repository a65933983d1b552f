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
