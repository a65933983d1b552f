#if PostgreSQL
    import Foundation
    import StateStorage

    extension PostgresStateDatabase {
        /// The advisory lock every process takes while it changes the schema.
        static let migrationLock: Int64 = 7_283_012

        /// Applies the migrations the database lacks, each in its own transaction under the
        /// advisory lock, checking again under the lock whether another process applied it.
        func migrate(_ migrations: [SchemaMigration]) throws {
            var names = Set<String>()
            for migration in migrations where !names.insert(migration.name).inserted {
                throw StateDatabaseError(
                    location: location, reason: "the migration '\(migration.name)' is listed twice: give each migration its own name")
            }
            let applied: Set<String> = try write { connection in
                try connection.execute("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", [])
                try connection.execute(
                    "CREATE TABLE IF NOT EXISTS shortcuts_migration (name text PRIMARY KEY, appliedAt double precision NOT NULL)", [])
                return Set(try connection.rows("SELECT name FROM shortcuts_migration", []).compactMap { $0.text("name") })
            }
            for migration in migrations where !applied.contains(migration.name) {
                try withSession(begin: "BEGIN") { session in
                    do {
                        try session.run("SELECT pg_advisory_xact_lock(\(Self.migrationLock))")
                        let done = try session.row("SELECT 1 AS done FROM shortcuts_migration WHERE name = ?", [.text(migration.name)])
                        if done == nil {
                            for statement in PostgresStatement.statements(migration.sql) {
                                try session.run(statement)
                            }
                            try session.execute(
                                "INSERT INTO shortcuts_migration (name, appliedAt) VALUES (?, \(dialect.currentTime))", [.text(migration.name)])
                            logger.info("applied the migration '\(migration.name)' to \(location)")
                        }
                        try session.run("COMMIT")
                    } catch let error as StateDatabaseError {
                        if !session.isBroken { try? session.run("ROLLBACK") }
                        throw StateDatabaseError(
                            location: location, reason: "the migration '\(migration.name)' failed: \(error.reason)",
                            isUnavailable: error.isUnavailable)
                    }
                }
            }
        }
    }
#endif
