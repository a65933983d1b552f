import Foundation
import StateStorage

extension RunHistory {
    /// How many runs started in a time window, by status: what a summary of recent runs and a
    /// chart of runs per day count.
    ///
    /// A `running` run whose process died counts as ``Status/interrupted``, as ``runs(_:)``
    /// reports it.
    ///
    /// ```swift
    /// let today = try history.statusCounts(from: Date().addingTimeInterval(-86_400), to: Date())
    /// print(today[.failed] ?? 0, "failed in the last day")
    /// ```
    ///
    /// - Parameters:
    ///   - start: The window's start (included).
    ///   - end: The window's end (excluded).
    /// - Returns: The number of runs of each status that has any.
    /// - Throws: `StateDatabaseError` or `SQLiteStorageError` naming the database when it cannot be read.
    public func statusCounts(from start: Date, to end: Date) throws -> [Status: Int] {
        let window: [SQLValue] = [.date(start), .date(end)]
        let (grouped, running) = try database.read { connection in
            (
                try connection.rows(
                    "SELECT status, count(*) AS total FROM run WHERE startedAt >= ? AND startedAt < ? AND status <> 'running' GROUP BY status",
                    window),
                try connection.rows("SELECT * FROM run WHERE status = 'running' AND startedAt >= ? AND startedAt < ?", window)
            )
        }
        var counts: [Status: Int] = [:]
        for row in grouped {
            guard let status = row.text("status").flatMap(Status.init(rawValue:)) else { continue }
            counts[status, default: 0] += row.int("total") ?? 0
        }
        for run in running.map(run) { counts[run.status, default: 0] += 1 }
        return counts
    }

    /// The runs with these identifiers, as they stand now: how a page that shows runs learns
    /// that they ended. Unknown identifiers are left out.
    ///
    /// ```swift
    /// let ended = try history.runs(ids: watched).filter { $0.status != .running }
    /// ```
    ///
    /// - Parameter ids: Full run identifiers.
    /// - Returns: The runs found, in no particular order.
    /// - Throws: `StateDatabaseError` or `SQLiteStorageError` naming the database when it cannot be read.
    public func runs(ids: [String]) throws -> [Run] {
        guard !ids.isEmpty else { return [] }
        var found: [Run] = []
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = ids[start..<min(start + 500, ids.count)]
            let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let rows = try database.read { connection in
                try connection.rows("SELECT * FROM run WHERE id IN (\(placeholders))", chunk.map { .text($0) })
            }
            found += rows.map(run)
        }
        return found
    }
}
