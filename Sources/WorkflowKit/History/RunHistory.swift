import Foundation
import GRDB
import IntentKit
import SQLiteStorage

/// Every run of a workflow and every step of it, in `$SHORTCUTS_HOME/runs.sqlite`.
///
/// A run is written when it starts (status `running`) and completed when it ends
/// (`succeeded`, `failed` or `cancelled`) with the trace of its steps, in one transaction.
///
/// - **Killed runs.** A manual run records its process (pid and start time). A run whose
///   process died before it ended (`kill -9`, a crash) is settled as `interrupted` by the next
///   process that opens the history for writing, and shown as `interrupted` by one that only
///   reads it. The automation daemon settles its own runs through its lock files.
/// - **Retention.** Runs that started more than ``retention`` (90 days) ago are deleted, with
///   their steps, when the history is opened for writing, at most once a day;
///   ``prune(olderThan:)`` deletes older runs on request.
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
    let database: any DatabaseWriter
    let path: String

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
    /// - Parameter readOnly: Whether to open it for reading only (nothing is created, settled
    ///   or pruned; works in a read-only folder).
    /// - Throws: `SQLiteStorageError` naming the file and the reason when it cannot be opened;
    ///   with `readOnly`, when it does not exist yet.
    public static func shared(readOnly: Bool = false) throws -> RunHistory {
        let path =
            readOnly
            ? ShortcutsHome.directory().appendingPathComponent("runs.sqlite").path
            : try ShortcutsHome.file(named: "runs.sqlite").path
        return try RunHistory(path: path, readOnly: readOnly)
    }

    /// Opens (creating or migrating) a history database; `:memory:` for a private one.
    ///
    /// Opened for writing, it settles the runs of dead processes and applies the retention.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - readOnly: Whether to open it for reading only.
    ///   - now: The current time, for the retention.
    /// - Throws: `SQLiteStorageError` naming the file and the reason.
    public init(path: String, readOnly: Bool = false, now: Date = Date()) throws {
        self.path = path
        database = try SQLiteDatabase.open(path: path, access: readOnly ? .readOnly : .readWrite, migrator: Self.migrator)
        if !readOnly {
            try settleAbandonedRuns(now: now)
            try applyRetention(now: now)
        }
    }

    /// Whether the history does not exist yet in the current `$SHORTCUTS_HOME`.
    public static var isAbsent: Bool {
        !FileManager.default.fileExists(atPath: ShortcutsHome.directory().appendingPathComponent("runs.sqlite").path)
    }

    static var migrator: DatabaseMigrator {
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
        return migrator
    }

    /// Runs work on the database, naming the file in its errors.
    private func using<T>(_ work: () throws -> T) throws -> T {
        try SQLiteStorageError.naming(path, work)
    }

    /// How a run ended.
    public enum Status: String, Sendable, Codable {
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
    ///   - trigger: What started it, such as `manual` or `automation`.
    ///   - id: The run's identifier, when the caller chose it beforehand (to link the run to
    ///     its own records); a new lowercase UUID by default.
    /// - Returns: The run's identifier.
    public func begin(workflow: Workflow, trigger: String = "manual", id: String? = nil) throws -> String {
        let id = id ?? UUID().uuidString.lowercased()
        let owner = RunOwner.current
        try using {
            try database.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO run (id, workflow, name, trigger, startedAt, status, ownerPID, ownerStartTime)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        id, workflow.fileName, workflow.name?.value, trigger, Date().timeIntervalSince1970,
                        Status.running.rawValue, owner.pid, owner.startTime
                    ])
            }
        }
        return id
    }

    /// Records how a run ended, with its steps.
    public func finish(_ id: String, status: Status, output: IntentValue?, error: String?, steps: [StepTrace]) throws {
        try using {
            try database.write { db in
                try db.execute(
                    sql: "UPDATE run SET endedAt = ?, status = ?, output = ?, error = ? WHERE id = ?",
                    arguments: [Date().timeIntervalSince1970, status.rawValue, output.map(\.jsonText), error, id])
                for (position, step) in steps.enumerated() {
                    try db.execute(
                        sql: """
                            INSERT INTO step (runID, position, depth, kind, stepID, file, line, "column", inputs, output, dialog,
                                              startedAt, durationSeconds, error, details, branch)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            id, position, step.depth, step.kind, step.stepID, step.location.file, step.location.line,
                            step.location.column, IntentValue.dictionary(step.inputs).jsonText, step.output.map(\.jsonText),
                            step.dialog, step.startedAt.timeIntervalSince1970, Self.seconds(step.duration), step.error,
                            step.details.isEmpty ? nil : IntentValue.dictionary(step.details).jsonText, step.branch
                        ])
                }
            }
        }
    }

    /// Records that several runs started, in one transaction: what a scheduler does for the
    /// runs due at the same instant, before it performs them with
    /// ``WorkflowRunner/run(_:inputs:runID:isBegun:)``.
    ///
    /// ```swift
    /// try history.begin([(file: "Workflows/report.yaml", name: "Report", id: id)], trigger: "automation")
    /// ```
    ///
    /// - Parameters:
    ///   - runs: Each run's workflow file (as in ``Workflow/fileName``), workflow name and identifier.
    ///   - trigger: What started them.
    /// - Returns: When they started.
    @discardableResult
    public func begin(_ runs: [(file: String, name: String?, id: String)], trigger: String) throws -> Date {
        let now = Date()
        guard !runs.isEmpty else { return now }
        try using {
            try database.write { db in
                let statement = try db.cachedStatement(
                    sql: "INSERT INTO run (id, workflow, name, trigger, startedAt, status) VALUES (?, ?, ?, ?, ?, ?)")
                for run in runs {
                    try statement.execute(arguments: [run.id, run.file, run.name, trigger, now.timeIntervalSince1970, Status.running.rawValue])
                }
            }
        }
        return now
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
        return try using {
            try database.write { db in
                var changed = 0
                for id in ids {
                    try db.execute(
                        sql: "UPDATE run SET status = ?, error = ?, endedAt = coalesce(endedAt, ?) WHERE id = ?"
                            + (onlyRunning ? " AND status = 'running'" : ""),
                        arguments: [status.rawValue, error, Date().timeIntervalSince1970, id])
                    changed += db.changesCount
                }
                return changed
            }
        }
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
    /// - Throws: ``HistoryError`` when no run or several runs match.
    public func run(matching prefix: String) throws -> (run: Run, steps: [RecordedStep]) {
        try SQLiteStorageError.naming(path) {
            try database.read { db in
                let rows = try Row.fetchAll(
                    db, sql: "SELECT * FROM run WHERE id LIKE ? ESCAPE '\\' LIMIT 2",
                    arguments: [Self.escapedForLike(prefix.lowercased()) + "%"])
                guard rows.count == 1 else {
                    throw rows.isEmpty ? HistoryError.noRun(prefix) : HistoryError.ambiguous(prefix)
                }
                let run = Self.run(rows[0])
                let steps = try Row.fetchAll(db, sql: "SELECT * FROM step WHERE runID = ? ORDER BY position", arguments: [run.id]).map { row in
                    RecordedStep(
                        position: row["position"], depth: row["depth"], kind: row["kind"], stepID: row["stepID"], file: row["file"],
                        line: row["line"], column: row["column"], inputs: row["inputs"], output: row["output"], dialog: row["dialog"],
                        startedAt: Date(timeIntervalSince1970: row["startedAt"]), durationSeconds: row["durationSeconds"],
                        error: row["error"], details: row["details"], branch: row["branch"])
                }
                return (run, steps)
            }
        }
    }

    /// A run from its row; a `running` run whose process died reads as `interrupted`
    /// (settled in the file by the next process that opens it for writing).
    static func run(_ row: Row) -> Run {
        var run = Run(
            id: row["id"], workflow: row["workflow"], name: row["name"], trigger: row["trigger"],
            startedAt: Date(timeIntervalSince1970: row["startedAt"]),
            endedAt: (row["endedAt"] as Double?).map(Date.init(timeIntervalSince1970:)),
            status: Status(rawValue: row["status"]) ?? .failed, output: row["output"], error: row["error"])
        if run.status == .running, let pid = row["ownerPID"] as Int32?,
            !RunOwner(pid: pid, startTime: row["ownerStartTime"] ?? 0).isAlive
        {
            run.status = .interrupted
            run.error = Self.interruptedMessage(pid: pid)
        }
        return run
    }

    static func interruptedMessage(pid: Int32) -> String {
        "interrupted: its process (pid \(pid)) ended before the run did"
    }

    static func escapedForLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
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
