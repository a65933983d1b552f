import StateStorage

extension RunHistory {
    /// The history's schema in a PostgreSQL database, for `PostgresStateDatabase`: the same
    /// tables and columns as in a SQLite file, plus `recordingOrder`, which orders runs that
    /// started at the same instant as SQLite's `rowid` does.
    ///
    /// ```swift
    /// let database = try PostgresStateDatabase(url: url, migrations: AutomationStore.postgresMigrations + RunHistory.postgresMigrations)
    /// let history = try RunHistory(database: database)
    /// ```
    public static let postgresMigrations: [SchemaMigration] = [
        SchemaMigration(
            name: "runs v1: runs, steps and maintenance",
            sql: """
                CREATE TABLE run (
                    id text PRIMARY KEY,
                    recordingOrder bigserial NOT NULL,
                    workflow text NOT NULL,
                    name text,
                    trigger text NOT NULL,
                    startedAt double precision NOT NULL,
                    endedAt double precision,
                    status text NOT NULL,
                    output text,
                    error text,
                    ownerPID bigint,
                    ownerStartTime bigint,
                    ownerHost text
                );
                CREATE INDEX run_startedAt ON run (startedAt);
                CREATE INDEX run_running ON run (status) WHERE status = 'running';
                CREATE TABLE step (
                    runID text NOT NULL REFERENCES run (id) ON DELETE CASCADE,
                    position bigint NOT NULL,
                    depth bigint NOT NULL,
                    kind text NOT NULL,
                    stepID text,
                    file text NOT NULL,
                    line bigint NOT NULL,
                    "column" bigint NOT NULL,
                    inputs text NOT NULL,
                    output text,
                    dialog text,
                    startedAt double precision NOT NULL,
                    durationSeconds double precision NOT NULL,
                    error text,
                    details text,
                    branch bigint,
                    PRIMARY KEY (runID, position)
                );
                CREATE TABLE maintenance (
                    task text PRIMARY KEY,
                    lastDoneAt double precision NOT NULL
                )
                """),
        SchemaMigration(name: "runs v2: run inputs", sql: "ALTER TABLE run ADD COLUMN inputs text")
    ]
}
