import Foundation
import GRDB
import SQLiteStorage

extension RunHistory {
    /// Which runs to list: all conditions given must hold.
    ///
    /// ```swift
    /// let failed = try history.runs(RunHistory.Filter(status: .failed, since: Date().addingTimeInterval(-7 * 86_400)))
    /// ```
    public struct Filter: Sendable {
        /// Only runs with this status.
        public var status: Status?
        /// Only runs of this workflow: its file as recorded (`Workflows/report.yaml`), its
        /// file's name (`report.yaml`) or its `name:`, ignoring case.
        public var workflow: String?
        /// Only runs that started at or after this time.
        public var since: Date?
        /// At most this many runs, newest first.
        public var limit: Int?

        public init(status: Status? = nil, workflow: String? = nil, since: Date? = nil, limit: Int? = nil) {
            self.status = status
            self.workflow = workflow
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
        var arguments = StatementArguments()
        if let status = filter.status {
            // Interrupted runs may still be recorded as running until a writer settles them.
            conditions.append(status == .interrupted ? "status IN ('interrupted', 'running')" : "status = ?")
            if status != .interrupted { arguments += [status.rawValue] }
        }
        if let workflow = filter.workflow {
            conditions.append("(workflow = ? OR workflow LIKE ? ESCAPE '\\' OR lower(name) = lower(?))")
            arguments += [workflow, "%/" + Self.escapedForLike(workflow), workflow]
        }
        if let since = filter.since {
            conditions.append("startedAt >= ?")
            arguments += [since.timeIntervalSince1970]
        }
        var sql = "SELECT * FROM run"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY startedAt DESC, rowid DESC"
        let needsCheck = filter.status == .interrupted || filter.status == .running
        if let limit = filter.limit, !needsCheck {
            sql += " LIMIT ?"
            arguments += [max(limit, 0)]
        }
        var runs = try SQLiteStorageError.naming(path) {
            try database.read { db in try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.run) }
        }
        if let status = filter.status { runs = runs.filter { $0.status == status } }
        if let limit = filter.limit { runs = Array(runs.prefix(max(limit, 0))) }
        return runs
    }
}
