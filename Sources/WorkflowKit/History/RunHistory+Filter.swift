import Foundation
import StateStorage

extension RunHistory {
    /// Which runs to list: all conditions given must hold.
    ///
    /// ```swift
    /// let failed = try history.runs(RunHistory.Filter(status: .failed, since: Date().addingTimeInterval(-7 * 86_400)))
    /// let scheduled = try history.runs(RunHistory.Filter(trigger: "automation", limit: 20))
    /// let secondPage = try history.runs(RunHistory.Filter(until: yesterday, limit: 50, offset: 50))
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
        /// Only runs that started before this time.
        public var until: Date?
        /// At most this many runs, newest first.
        public var limit: Int?
        /// How many of the selected runs, newest first, to leave out before the ``limit``: the
        /// runs of earlier pages.
        public var offset: Int

        /// Creates a filter; conditions left `nil` select every run.
        ///
        /// - Parameters:
        ///   - status: Only runs with this status.
        ///   - workflow: Only runs of this workflow (its file, file name or name).
        ///   - trigger: Only runs started this way.
        ///   - since: Only runs that started at or after this time.
        ///   - until: Only runs that started before this time.
        ///   - limit: At most this many runs.
        ///   - offset: How many selected runs to leave out first.
        public init(
            status: Status? = nil, workflow: String? = nil, trigger: String? = nil, since: Date? = nil, until: Date? = nil,
            limit: Int? = nil, offset: Int = 0
        ) {
            self.status = status
            self.workflow = workflow
            self.trigger = trigger
            self.since = since
            self.until = until
            self.limit = limit
            self.offset = offset
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
        if let until = filter.until {
            conditions.append("startedAt < ?")
            arguments.append(.date(until))
        }
        var sql = "SELECT * FROM run"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY startedAt DESC, " + database.dialect.runRecordingOrder + " DESC"
        let needsCheck = filter.status == .interrupted || filter.status == .running
        let offset = max(filter.offset, 0)
        if !needsCheck {
            if let limit = filter.limit {
                sql += " LIMIT ?"
                arguments.append(.integer(Int64(max(limit, 0))))
            } else if offset > 0 {
                sql += " LIMIT " + (database.dialect == .sqlite ? "-1" : "ALL")
            }
            if offset > 0 {
                sql += " OFFSET ?"
                arguments.append(.integer(Int64(offset)))
            }
        }
        let rows = try database.read { connection in try connection.rows(sql, arguments) }
        var runs = rows.map(run)
        if let status = filter.status { runs = runs.filter { $0.status == status } }
        if needsCheck { runs = Array(runs.dropFirst(offset)) }
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
