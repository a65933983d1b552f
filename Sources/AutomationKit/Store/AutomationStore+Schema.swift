import GRDB
import StateStorage

/// The store's tables, in SQLite (GRDB migrations, so that older files keep working) and in
/// PostgreSQL (``AutomationStore/postgresMigrations``), with the same names and columns.
extension AutomationStore {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: automations, claims, daemons") { db in
            try db.create(table: "automation") { table in
                table.primaryKey("key", .text)
                table.column("definition", .text).notNull()
                table.column("since", .double).notNull()
            }
            try db.create(table: "claim") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("automationKey", .text).notNull()
                table.column("dueTime", .integer).notNull()
                table.column("status", .text).notNull()
                table.column("runID", .text)
                table.column("daemonID", .text).notNull()
                table.column("isCatchUp", .boolean).notNull()
                table.column("attempts", .integer).notNull()
                table.column("claimedAt", .double).notNull()
                table.column("startedAt", .double)
                table.column("endedAt", .double)
                table.column("note", .text)
                table.uniqueKey(["automationKey", "dueTime"])
            }
            try db.execute(sql: "CREATE INDEX claim_pending ON claim(daemonID) WHERE status IN ('queued', 'running')")
            try db.create(table: "daemon") { table in
                table.primaryKey("id", .text)
                table.column("pid", .integer).notNull()
                table.column("host", .text).notNull()
                table.column("workflows", .text).notNull()
                table.column("startedAt", .double).notNull()
                table.column("stoppedAt", .double)
            }
        }
        migrator.registerMigration("v2: leases, fencing, global overlap, run requests") { db in
            try db.alter(table: "daemon") { table in
                table.add(column: "epoch", .integer).notNull().defaults(to: 0)
                table.add(column: "leaseSeconds", .double)
                table.add(column: "renewedAt", .double)
                table.add(column: "leaseExpiresAt", .double)
                table.add(column: "settledAt", .double)
                table.add(column: "settledBy", .text)
            }
            try db.alter(table: "claim") { table in
                table.add(column: "epoch", .integer).notNull().defaults(to: 0)
                table.add(column: "cancelRequested", .integer).notNull().defaults(to: 0)
            }
            try db.execute(sql: "CREATE INDEX claim_active ON claim(automationKey) WHERE status IN ('queued', 'running')")
            try db.execute(sql: "CREATE INDEX claim_recent ON claim(daemonID, claimedAt)")
            try db.create(table: "runRequest") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("automationKey", .text).notNull()
                table.column("inputs", .text)
                table.column("trigger", .text).notNull()
                table.column("status", .text).notNull()
                table.column("requestedAt", .double).notNull()
                table.column("daemonID", .text)
                table.column("runID", .text)
                table.column("takenAt", .double)
                table.column("endedAt", .double)
                table.column("output", .text)
                table.column("error", .text)
            }
            try db.execute(sql: "CREATE INDEX runRequest_queued ON runRequest(automationKey) WHERE status = 'queued'")
            try db.execute(sql: "CREATE INDEX runRequest_running ON runRequest(daemonID) WHERE status = 'running'")
        }
        migrator.registerMigration("v3: claims by due time") { db in
            // A day of claims of every automation is kept: the charts' window and the pruning of
            // older ones read them by due time.
            try db.execute(sql: "CREATE INDEX claim_due ON claim(dueTime)")
        }
        return migrator
    }

    /// The store's tables in a PostgreSQL database, to pass with the other stores' migrations
    /// when opening it.
    ///
    /// ```swift
    /// let database = try PostgresStateDatabase(url: url, migrations: AutomationStore.postgresMigrations + RunHistory.postgresMigrations)
    /// ```
    public static let postgresMigrations: [SchemaMigration] = [
        SchemaMigration(
            name: "automations v1: automations, claims, daemons, run requests",
            sql: """
                CREATE TABLE automation (key text PRIMARY KEY, definition text NOT NULL, since double precision NOT NULL);
                CREATE TABLE claim (
                    id bigserial PRIMARY KEY, automationKey text NOT NULL, dueTime bigint NOT NULL, status text NOT NULL, runID text,
                    daemonID text NOT NULL, isCatchUp integer NOT NULL, attempts integer NOT NULL, claimedAt double precision NOT NULL,
                    startedAt double precision, endedAt double precision, note text, epoch bigint NOT NULL DEFAULT 0,
                    cancelRequested integer NOT NULL DEFAULT 0, UNIQUE (automationKey, dueTime));
                CREATE INDEX claim_pending ON claim(daemonID) WHERE status IN ('queued', 'running');
                CREATE INDEX claim_active ON claim(automationKey) WHERE status IN ('queued', 'running');
                CREATE INDEX claim_recent ON claim(daemonID, claimedAt);
                CREATE SEQUENCE daemon_epoch;
                CREATE TABLE daemon (
                    id text PRIMARY KEY, pid integer NOT NULL, host text NOT NULL, workflows text NOT NULL,
                    startedAt double precision NOT NULL, stoppedAt double precision, epoch bigint NOT NULL DEFAULT 0,
                    leaseSeconds double precision, renewedAt double precision, leaseExpiresAt double precision,
                    settledAt double precision, settledBy text);
                CREATE TABLE runRequest (
                    id bigserial PRIMARY KEY, automationKey text NOT NULL, inputs text, trigger text NOT NULL, status text NOT NULL,
                    requestedAt double precision NOT NULL, daemonID text, runID text, takenAt double precision,
                    endedAt double precision, output text, error text);
                CREATE INDEX runRequest_queued ON runRequest(automationKey) WHERE status = 'queued';
                CREATE INDEX runRequest_running ON runRequest(daemonID) WHERE status = 'running'
                """),
        SchemaMigration(name: "automations v2: claims by due time", sql: "CREATE INDEX claim_due ON claim(dueTime)")
    ]
}
