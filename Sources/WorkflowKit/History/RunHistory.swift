import Clockwork
import Foundation
import GRDB
import IntentKit
import SQLiteStorage
import StateStorage

/// Every run of a workflow and every step of it, in `$SHORTCUTS_HOME/runs.sqlite` or in a
/// PostgreSQL database shared by many machines (``init(database:)``).
///
/// A run is written when it starts (status `running`) and completed when it ends
/// (`succeeded`, `failed` or `cancelled`) with the trace of its steps, in one transaction.
///
/// - **Killed runs.** A manual run records its process (pid and start time). A run whose
///   process died before it ended (`kill -9`, a crash) is settled as `interrupted` by the next
///   process that opens the history for writing, and shown as `interrupted` by one that only
///   reads it. A manual run also records its host: only processes on that host judge whether
///   its process lives. The automation daemon settles its own runs through its leases.
/// - **Retention.** Runs that started more than ``retention`` (90 days) ago are deleted, with
///   their steps, when the history is opened for writing, at most once a day;
///   ``prune(olderThan:)`` deletes older runs on request.
/// - **Size.** Each stored value (a step's inputs or output, the run's output, an error) is
///   kept up to 64 KiB, and a run's values up to 8 MiB in all; a value past a cap is stored as
///   its beginning and a note naming the cap (``StoredValueCap``).
/// - **Metrics.** Each run recorded as ended (by its runner, or settled) counts once in
///   ``WorkflowMetric/runs``, with the swift-metrics factory in force when the history was
///   opened.
/// - **Concurrency.** Several processes may write at once: the file is opened through
///   `SQLiteStorage` (WAL, a 5-second busy timeout, immediate write transactions).
///   Commits do not wait for the disk (`synchronous = NORMAL`): a process killed at any moment
///   loses nothing, a power cut may lose the last runs recorded.
///
/// ```swift
/// let history = try RunHistory.shared()
/// for run in try history.runs(RunHistory.Filter(limit: 10)) { print(run.id, run.status) }
/// ```
public final class RunHistory: Sendable {
    /// Where the runs are kept.
    let database: any StateDatabase
    /// This machine's name, recorded with each manual run (``RunOwner``'s host).
    let host: String
    /// What the runs' start and end times are read from.
    public let clock: any EngineClock
    /// Where the runs recorded as ended are counted (``WorkflowMetric/runs``): the factory in
    /// force when the history was opened.
    let metrics = RunMetrics()

    /// How long runs are kept after they started: 90 days (runs still running are kept).
    public static let retention: TimeInterval = 90 * 86_400

    /// How often the ``retention`` is applied: once a day.
    static let pruningInterval: TimeInterval = 86_400

    /// The history in the current `$SHORTCUTS_HOME`.
    ///
    /// ```swift
    /// let history = try RunHistory.shared(readOnly: true)
    /// ```
    ///
    /// - Parameters:
    ///   - readOnly: Whether to open it for reading only (nothing is created, settled or
    ///     pruned; works in a read-only folder).
    ///   - clock: What the runs' times are read from, and the retention measured by.
    /// - Throws: `SQLiteStorageError` naming the file and the reason when it cannot be opened;
    ///   with `readOnly`, when it does not exist yet.
    public static func shared(readOnly: Bool = false, clock: any EngineClock = .system) throws -> RunHistory {
        let path =
            readOnly
            ? ShortcutsHome.directory().appendingPathComponent("runs.sqlite").path
            : try ShortcutsHome.file(named: "runs.sqlite").path
        return try RunHistory(path: path, readOnly: readOnly, clock: clock)
    }

    /// Opens (creating or migrating) a history database; `:memory:` for a private one.
    ///
    /// Opened for writing, it settles the runs of dead processes and applies the retention.
    ///
    /// ```swift
    /// let history = try RunHistory(path: "/tmp/runs.sqlite")
    /// ```
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - readOnly: Whether to open it for reading only.
    ///   - clock: What the runs' times are read from, and the retention measured by.
    /// - Throws: `SQLiteStorageError` naming the file and the reason.
    public convenience init(path: String, readOnly: Bool = false, clock: any EngineClock = .system) throws {
        let database = try SQLiteStateDatabase(path: path, readOnly: readOnly, migrator: Self.migrator)
        try self.init(database: database, host: RunOwner.host, maintains: !readOnly, clock: clock)
    }

    /// Opens the history kept in a state database: a SQLite file, or a PostgreSQL database
    /// shared by the daemons of many machines (opened with ``postgresMigrations``).
    ///
    /// It settles the manual runs of this host's dead processes and applies the retention.
    ///
    /// ```swift
    /// let database = try PostgresStateDatabase(url: url, migrations: RunHistory.postgresMigrations)
    /// let history = try RunHistory(database: database)
    /// ```
    ///
    /// - Parameters:
    ///   - database: The database; a SQLite one is migrated when it needs to be.
    ///   - clock: What the runs' times are read from, and the retention measured by.
    /// - Throws: ``StateDatabaseError`` (or `SQLiteStorageError`) naming the database when it
    ///   cannot be read or written.
    public convenience init(database: any StateDatabase, clock: any EngineClock = .system) throws {
        try self.init(database: database, host: RunOwner.host, maintains: true, clock: clock)
    }

    /// Opens the history in a state database as a process on `host` would.
    ///
    /// - Parameters:
    ///   - database: The database.
    ///   - host: The name recorded as the host of manual runs, and the only host whose runs
    ///     this history settles by their process.
    ///   - maintains: Whether to settle abandoned runs and apply the retention now.
    ///   - clock: What the runs' times are read from, and the retention measured by.
    ///   - now: The current time for the retention, when not the clock's.
    package init(
        database: any StateDatabase, host: String, maintains: Bool = true, clock: any EngineClock = .system, now: Date? = nil
    ) throws {
        self.clock = clock
        let now = now ?? clock.now()
        if let file = database as? SQLiteStateDatabase, maintains {
            let isMigrated = try SQLiteStorageError.naming(file.path) { try file.writer.read { try Self.migrator.hasCompletedMigrations($0) } }
            if !isMigrated { try SQLiteStorageError.naming(file.path) { try Self.migrator.migrate(file.writer) } }
        }
        if database.dialect == .postgres { try Self.checkSchema(of: database) }
        self.database = database
        self.host = host
        if maintains {
            try settleAbandonedRuns(now: now)
            try applyRetention(now: now)
        }
    }

    /// Throws, with the fix, when a PostgreSQL database lacks the store's migrations.
    private static func checkSchema(of database: any StateDatabase) throws {
        try database.requireMigrations(postgresMigrations, of: "the run history", openedWith: "RunHistory.postgresMigrations")
    }

    /// Whether the history does not exist yet in the current `$SHORTCUTS_HOME`.
    public static var isAbsent: Bool {
        !FileManager.default.fileExists(atPath: ShortcutsHome.directory().appendingPathComponent("runs.sqlite").path)
    }

    /// The history's schema in a SQLite file.
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: runs and steps") { db in
            try db.create(table: "run") { table in
                table.primaryKey("id", .text)
                table.column("workflow", .text).notNull()
                table.column("name", .text)
                table.column("trigger", .text).notNull()
                table.column("startedAt", .double).notNull()
                table.column("endedAt", .double)
                table.column("status", .text).notNull()
                table.column("output", .text)
                table.column("error", .text)
            }
            try db.create(index: "run_startedAt", on: "run", columns: ["startedAt"])
            try db.create(table: "step") { table in
                table.column("runID", .text).notNull().references("run", onDelete: .cascade)
                table.column("position", .integer).notNull()
                table.column("depth", .integer).notNull()
                table.column("kind", .text).notNull()
                table.column("stepID", .text)
                table.column("file", .text).notNull()
                table.column("line", .integer).notNull()
                table.column("column", .integer).notNull()
                table.column("inputs", .text).notNull()
                table.column("output", .text)
                table.column("dialog", .text)
                table.column("startedAt", .double).notNull()
                table.column("durationSeconds", .double).notNull()
                table.column("error", .text)
                table.primaryKey(["runID", "position"])
            }
        }
        migrator.registerMigration("v2: run owners and retention") { db in
            try db.alter(table: "run") { table in
                table.add(column: "ownerPID", .integer)
                table.add(column: "ownerStartTime", .integer)
            }
            try db.execute(sql: "CREATE INDEX run_running ON run(status) WHERE status = 'running'")
            try db.create(table: "maintenance") { table in
                table.primaryKey("task", .text)
                table.column("lastDoneAt", .double).notNull()
            }
        }
        migrator.registerMigration("v3: step details") { db in
            try db.alter(table: "step") { table in
                table.add(column: "details", .text)
            }
        }
        migrator.registerMigration("v4: step branches") { db in
            try db.alter(table: "step") { table in
                table.add(column: "branch", .integer)
            }
        }
        migrator.registerMigration("v5: run owner hosts") { db in
            try db.alter(table: "run") { table in
                table.add(column: "ownerHost", .text)
            }
        }
        migrator.registerMigration("v6: run inputs") { db in
            try db.alter(table: "run") { table in
                table.add(column: "inputs", .text)
            }
        }
        return migrator
    }

    /// How a run ended.
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// Started and not ended yet.
        case running
        /// Ended with its output.
        case succeeded
        /// Ended with an error.
        case failed
        /// Stopped on request (Ctrl-C, a daemon's shutdown, an automation's newer run).
        case cancelled
        /// Its process died while it ran (`kill -9`, a crash, a power cut).
        case interrupted
    }

    /// A recorded run.
    public struct Run: Sendable, Codable {
        public var id: String
        public var workflow: String
        public var name: String?
        public var trigger: String
        public var startedAt: Date
        public var endedAt: Date?
        public var status: Status
        public var output: String?
        public var error: String?
        /// The input values the run was given, as a JSON object; `nil` when it was given none
        /// (its inputs' defaults apply) or was recorded before inputs were.
        public var inputs: String? = nil

        /// A run as the history records it.
        package init(
            id: String, workflow: String, name: String?, trigger: String, startedAt: Date, endedAt: Date?, status: Status,
            output: String? = nil, error: String? = nil, inputs: String? = nil
        ) {
            self.id = id
            self.workflow = workflow
            self.name = name
            self.trigger = trigger
            self.startedAt = startedAt
            self.endedAt = endedAt
            self.status = status
            self.output = output
            self.error = error
            self.inputs = inputs
        }
    }

    /// A recorded step.
    public struct RecordedStep: Sendable, Codable {
        public var position: Int
        public var depth: Int
        public var kind: String
        public var stepID: String?
        public var file: String
        public var line: Int
        public var column: Int
        public var inputs: String
        public var output: String?
        public var dialog: String?
        public var startedAt: Date
        public var durationSeconds: Double
        public var error: String?
        /// What the step's intent recorded (``StepTrace/details``) as a JSON object; `nil` when nothing.
        public var details: String?
        /// The number of the `parallel` branch or concurrent `repeat` pass a `branch` or
        /// `pass` record opens (``StepTrace/branch``), counting from 1.
        public var branch: Int? = nil
    }

    /// Records that a run started.
    ///
    /// ```swift
    /// let id = try history.begin(workflow: workflow, trigger: "automation")
    /// ```
    ///
    /// - Parameters:
    ///   - workflow: The workflow that runs.
    ///   - trigger: What started it, such as `manual`, `automation`, `webhook` or `file`.
    ///   - id: The run's identifier, when the caller chose it beforehand (to link the run to
    ///     its own records); a new lowercase UUID by default.
    ///   - inputs: The input values it was given (with secret values masked), recorded as a
    ///     JSON object; none by default.
    /// - Returns: The run's identifier.
    public func begin(workflow: Workflow, trigger: String = "manual", id: String? = nil, inputs: [String: IntentValue] = [:]) throws -> String {
        let id = id ?? UUID().uuidString.lowercased()
        let owner = RunOwner.current
        var cap = StoredValueCap()
        let storedInputs = cap.json(.dictionary(inputs))
        try database.write { connection in
            try connection.execute(
                """
                INSERT INTO run (id, workflow, name, trigger, startedAt, status, ownerPID, ownerStartTime, ownerHost, inputs)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(id), .text(workflow.fileName), .optional(workflow.name?.value), .text(trigger), .date(clock.now()),
                    .text(Status.running.rawValue), .integer(Int64(owner.pid)), .integer(owner.startTime), .text(host),
                    .optional(inputs.isEmpty ? nil : storedInputs)
                ])
        }
        return id
    }

    /// Records how a run ended, with its steps, and counts it (``WorkflowMetric/runs``).
    ///
    /// Only a run still recorded as running is changed, and counted: one that another process
    /// settled in the meantime (interrupted, because its daemon was paused past its lease and
    /// another daemon took over; or cancelled) keeps that record.
    ///
    /// ```swift
    /// try history.finish(id, status: .succeeded, output: .string("done"), error: nil, steps: result.steps, trigger: "manual")
    /// ```
    ///
    /// - Parameters:
    ///   - id: The run's identifier.
    ///   - status: How it ended.
    ///   - output: Its output, if it succeeded.
    ///   - error: Its error, if it failed.
    ///   - steps: The trace of its steps.
    ///   - trigger: What started it, as ``begin(workflow:trigger:id:)`` recorded, when the caller
    ///     knows it (a runner does): the metrics' label; read back from the record when `nil`.
    /// - Throws: The database's error.
    public func finish(_ id: String, status: Status, output: IntentValue?, error: String?, steps: [StepTrace], trigger: String? = nil) throws {
        // The run's output and error first, so that a long trace cannot crowd them out.
        var cap = StoredValueCap()
        let storedOutput = cap.json(output)
        let storedError = cap.text(error)
        let rows = steps.enumerated().map { position, step -> [SQLValue] in
            [
                .text(id), .integer(Int64(position)), .integer(Int64(step.depth)), .text(step.kind), .optional(step.stepID),
                .text(step.location.file), .integer(Int64(step.location.line)), .integer(Int64(step.location.column)),
                .text(cap.json(.dictionary(step.inputs))), .optional(cap.json(step.output)), .optional(cap.text(step.dialog)),
                .date(step.startedAt), .real(step.duration.timeInterval), .optional(cap.text(step.error)),
                .optional(step.details.isEmpty ? nil : cap.json(.dictionary(step.details))), .optional(step.branch.map(Int64.init))
            ]
        }
        let counts = metrics.isEnabled
        let endedTrigger = try database.write { connection -> String? in
            let update = "UPDATE run SET endedAt = ?, status = ?, output = ?, error = ? WHERE id = ? AND status = 'running'"
            let values: [SQLValue] = [.date(clock.now()), .text(status.rawValue), .optional(storedOutput), .optional(storedError), .text(id)]
            // Counted without a trigger given, the run's comes back from the same statement.
            let ended =
                counts && trigger == nil
                ? try connection.rows(update + #" RETURNING "trigger""#, values).first.map { $0.text("trigger") ?? "" }
                : try connection.execute(update, values) == 1 ? trigger ?? "" : nil
            // A run that was settled meanwhile (marked interrupted by the daemon that took over
            // from a paused one, or cancelled) keeps that record.
            guard let ended else { return nil }
            for row in rows {
                try connection.execute(
                    """
                    INSERT INTO step (runID, position, depth, kind, stepID, file, line, "column", inputs, output, dialog,
                                      startedAt, durationSeconds, error, details, branch)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, row)
            }
            return ended
        }
        // Counted once committed: a transaction tried again does not count twice.
        if counts, let endedTrigger { metrics.recordEnded(status, trigger: endedTrigger) }
    }

    /// Records that several runs started, in one transaction: what a scheduler does for the
    /// runs due at the same instant, before it performs them with
    /// ``WorkflowRunner/run(_:inputs:runID:isBegun:)``.
    ///
    /// A run already in the history keeps its record and is named in
    /// ``BegunRuns/alreadyRecorded``: another process settled it first, as a daemon does for the
    /// claims of a daemon paused past its lease (``recordUnbegun(_:trigger:status:error:)``), so
    /// it is not the caller's to perform.
    ///
    /// ```swift
    /// let begun = try history.begin([(file: "Workflows/report.yaml", name: "Report", id: id)], trigger: "automation")
    /// if begun.alreadyRecorded.contains(id) { return }  // settled elsewhere
    /// ```
    ///
    /// - Parameters:
    ///   - runs: Each run's workflow file (as in ``Workflow/fileName``), workflow name and identifier.
    ///   - trigger: What started them.
    /// - Returns: When they started, and which were recorded already.
    @discardableResult
    public func begin(_ runs: [(file: String, name: String?, id: String)], trigger: String) throws -> BegunRuns {
        let now = clock.now()
        guard !runs.isEmpty else { return BegunRuns(startedAt: now, alreadyRecorded: []) }
        let alreadyRecorded = try database.write { connection -> Set<String> in
            var recorded: Set<String> = []
            for run in runs {
                let added = try connection.execute(
                    """
                    INSERT INTO run (id, workflow, name, trigger, startedAt, status) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO NOTHING
                    """,
                    [.text(run.id), .text(run.file), .optional(run.name), .text(trigger), .date(now), .text(Status.running.rawValue)])
                if added == 0 { recorded.insert(run.id) }
            }
            return recorded
        }
        return BegunRuns(startedAt: now, alreadyRecorded: alreadyRecorded)
    }

    /// Records runs that ended before their start was recorded, such as runs a daemon claimed
    /// and was killed before it could record: each is added as ended with a status and an
    /// error, and counted (``WorkflowMetric/runs``); one already recorded is left as it is.
    ///
    /// ```swift
    /// try history.recordUnbegun(
    ///     [(file: "reports/nightly.yaml", name: "Nightly report", id: runID, startedAt: claimedAt)],
    ///     trigger: "automation", status: .interrupted, error: "interrupted: the daemon stopped")
    /// ```
    ///
    /// - Parameters:
    ///   - runs: Each run's workflow file, workflow name, identifier and when it was to start.
    ///   - trigger: What started them.
    ///   - status: How they ended.
    ///   - error: The error to record.
    /// - Returns: How many runs were added.
    @discardableResult
    public func recordUnbegun(
        _ runs: [(file: String, name: String?, id: String, startedAt: Date)], trigger: String, status: Status, error: String
    ) throws -> Int {
        guard !runs.isEmpty else { return 0 }
        let now = clock.now()
        let added = try database.write { connection -> Int in
            var added = 0
            for run in runs {
                added += try connection.execute(
                    """
                    INSERT INTO run (id, workflow, name, trigger, startedAt, endedAt, status, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO NOTHING
                    """,
                    [
                        .text(run.id), .text(run.file), .optional(run.name), .text(trigger), .date(min(run.startedAt, now)), .date(now),
                        .text(status.rawValue), .text(error)
                    ])
            }
            return added
        }
        if metrics.isEnabled { for _ in 0..<added { metrics.recordEnded(status, trigger: trigger) } }
        return added
    }

    /// Marks runs that are still `running` as ended with another status and an error, such as
    /// runs whose process died (``Status/interrupted``) or that an automation timed out.
    ///
    /// ```swift
    /// try history.mark(["1a2b3c4d-…"], as: .interrupted, error: "interrupted: the daemon stopped")
    /// ```
    ///
    /// - Parameters:
    ///   - ids: The runs' identifiers; unknown ones are ignored.
    ///   - status: The status to record.
    ///   - error: The error to record.
    ///   - onlyRunning: Whether to leave runs that already ended as they are (the default).
    /// - Returns: How many runs were changed.
    @discardableResult
    public func mark(_ ids: [String], as status: Status, error: String, onlyRunning: Bool = true) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        let now = clock.now()
        let counts = metrics.isEnabled
        let (changed, ended) = try database.write { connection -> (Int, [String]) in
            var changed = 0
            var ended: [String] = []
            for id in ids {
                let update = "UPDATE run SET status = ?, error = ?, endedAt = coalesce(endedAt, ?) WHERE id = ?"
                let values: [SQLValue] = [.text(status.rawValue), .text(error), .date(now), .text(id)]
                // A run still running ends now, and counts (``WorkflowMetric/runs``) with its trigger.
                let running = update + " AND status = 'running'"
                if counts {
                    let returned = try connection.rows(running + #" RETURNING "trigger""#, values)
                    changed += returned.count
                    ended += returned.map { $0.text("trigger") ?? "" }
                } else {
                    changed += try connection.execute(running, values)
                }
                // One that had ended already only has its record changed.
                if !onlyRunning { changed += try connection.execute(update + " AND status <> 'running'", values) }
            }
            return (changed, ended)
        }
        for trigger in ended { metrics.recordEnded(status, trigger: trigger) }
        return changed
    }

    /// The most recent runs, newest first.
    ///
    /// - Parameter limit: How many.
    /// - Returns: The runs.
    public func recentRuns(limit: Int = 20) throws -> [Run] {
        try runs(Filter(limit: limit))
    }

    /// A run by identifier or unique identifier prefix, with its steps.
    ///
    /// ```swift
    /// let (run, steps) = try history.run(matching: "1a2b")
    /// ```
    ///
    /// - Throws: ``HistoryError`` when no run or several runs match.
    public func run(matching prefix: String) throws -> (run: Run, steps: [RecordedStep]) {
        try database.read { connection in
            let rows = try connection.rows(
                "SELECT * FROM run WHERE lower(id) LIKE ? ESCAPE '!' LIMIT 2", [.text(Self.escapedForLike(prefix.lowercased()) + "%")])
            guard rows.count == 1 else {
                throw rows.isEmpty ? HistoryError.noRun(prefix) : HistoryError.ambiguous(prefix)
            }
            let run = self.run(rows[0])
            let steps = try connection.rows("SELECT * FROM step WHERE runID = ? ORDER BY position", [.text(run.id)]).map { row in
                RecordedStep(
                    position: row.int("position") ?? 0, depth: row.int("depth") ?? 0, kind: row.text("kind") ?? "",
                    stepID: row.text("stepID"), file: row.text("file") ?? "", line: row.int("line") ?? 0, column: row.int("column") ?? 0,
                    inputs: row.text("inputs") ?? "{}", output: row.text("output"), dialog: row.text("dialog"),
                    startedAt: row.date("startedAt") ?? Date(timeIntervalSince1970: 0), durationSeconds: row.real("durationSeconds") ?? 0,
                    error: row.text("error"), details: row.text("details"), branch: row.int("branch"))
            }
            return (run, steps)
        }
    }

    /// A run from its row; a `running` manual run of this host whose process died reads as
    /// `interrupted` (settled in the database by the next process that opens it for writing).
    func run(_ row: SQLRow) -> Run {
        var run = Run(
            id: row.text("id") ?? "", workflow: row.text("workflow") ?? "", name: row.text("name"), trigger: row.text("trigger") ?? "",
            startedAt: row.date("startedAt") ?? Date(timeIntervalSince1970: 0), endedAt: row.date("endedAt"),
            status: row.text("status").flatMap(Status.init(rawValue:)) ?? .failed, output: row.text("output"), error: row.text("error"),
            inputs: row.text("inputs"))
        if run.status == .running, let owner = owner(row), !owner.isAlive {
            run.status = .interrupted
            run.error = Self.interruptedMessage(pid: owner.pid)
        }
        return run
    }

    /// The process that recorded a run, when it ran on this host (only this host can tell
    /// whether it lives); runs recorded before hosts were recorded count as this host's.
    func owner(_ row: SQLRow) -> RunOwner? {
        guard let pid = row.integer("ownerPID"), row.text("ownerHost").map({ $0 == host }) ?? true else { return nil }
        return RunOwner(pid: Int32(truncatingIfNeeded: pid), startTime: row.integer("ownerStartTime") ?? 0)
    }

    static func interruptedMessage(pid: Int32) -> String {
        "interrupted: its process (pid \(pid)) ended before the run did"
    }

    static func escapedForLike(_ text: String) -> String {
        text.replacingOccurrences(of: "!", with: "!!").replacingOccurrences(of: "%", with: "!%").replacingOccurrences(of: "_", with: "!_")
    }

}

/// A run that cannot be found in the history.
public enum HistoryError: Error, CustomStringConvertible, Sendable {
    case noRun(String)
    case ambiguous(String)

    public var description: String {
        switch self {
        case .noRun(let prefix): "no run '\(prefix)'"
        case .ambiguous(let prefix): "several runs start with '\(prefix)'\nhelp: give more characters of the run's id"
        }
    }
}
