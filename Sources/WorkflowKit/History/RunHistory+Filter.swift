import Foundation
import StateStorage

extension RunHistory {
    /// Which runs to list: all conditions given must hold.
    ///
    /// ```swift
    /// let failed = try history.runs(RunHistory.Filter(status: .failed, since: Date().addingTimeInterval(-7 * 86_400)))
    /// let scheduled = try history.runs(RunHistory.Filter(trigger: "automation", limit: 20))
    /// ```
    public struct Filter: Sendable {
        /// Only runs with this status.
        public var status: Status?
        /// Only runs of this workflow: its file as recorded (`Workflows/report.yaml`), its
        /// file's name (`report.yaml`) or its `name:`, ignoring case.
        public var workflow: String?
        /// Only runs started this way: `manual`, `automation`, or what the caller recorded.
        public var trigger: String?
        /// Only runs that started at or after this time.
        public var since: Date?
        /// At most this many runs, newest first.
        public var limit: Int?

        public init(status: Status? = nil, workflow: String? = nil, trigger: String? = nil, since: Date? = nil, limit: Int? = nil) {
            self.status = status
            self.workflow = workflow
            self.trigger = trigger
            self.since = since
            self.limit = limit
        }
    }

    /// The runs a filter selects, newest first.
    ///
    /// A `running` run whose process died is reported (and selected by `status`) as
    /// ``Status/interrupted``.
    ///
    /// - Parameter filter: The conditions.
    /// - Returns: The runs.
    public func runs(_ filter: Filter) throws -> [Run] {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let status = filter.status {
            // Interrupted runs may still be recorded as running until a writer settles them.
            conditions.append(status == .interrupted ? "status IN ('interrupted', 'running')" : "status = ?")
            if status != .interrupted { arguments.append(.text(status.rawValue)) }
        }
        if let workflow = filter.workflow {
            conditions.append("(workflow = ? OR lower(workflow) LIKE lower(?) ESCAPE '!' OR lower(name) = lower(?))")
            arguments += [.text(workflow), .text("%/" + Self.escapedForLike(workflow)), .text(workflow)]
        }
        if let trigger = filter.trigger {
            conditions.append("trigger = ?")
            arguments.append(.text(trigger))
        }
        if let since = filter.since {
            conditions.append("startedAt >= ?")
            arguments.append(.date(since))
        }
        var sql = "SELECT * FROM run"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY startedAt DESC, " + database.dialect.runRecordingOrder + " DESC"
        let needsCheck = filter.status == .interrupted || filter.status == .running
        if let limit = filter.limit, !needsCheck {
            sql += " LIMIT ?"
            arguments.append(.integer(Int64(max(limit, 0))))
        }
        let rows = try database.read { connection in try connection.rows(sql, arguments) }
        var runs = rows.map(run)
        if let status = filter.status { runs = runs.filter { $0.status == status } }
        if let limit = filter.limit { runs = Array(runs.prefix(max(limit, 0))) }
        return runs
    }
}

extension SQLDialect {
    /// The column that orders runs as they were recorded: SQLite's `rowid`, a sequence in
    /// PostgreSQL.
    var runRecordingOrder: String {
        switch self {
        case .sqlite: "rowid"
        case .postgres: "recordingOrder"
        }
    }
}
