import Foundation
import StateStorage

/// Runs asked for outside the schedule, queued for any live daemon that schedules the
/// automation to take (`FOR UPDATE SKIP LOCKED` in PostgreSQL, so that daemons taking at once
/// never take the same request nor wait on one another).
extension AutomationStore {
    /// Queues a run of an automation for a daemon to take.
    ///
    /// ```swift
    /// let request = try store.enqueueRun(automationKey: store.key(for: automation), inputs: #"{"name": "Ada"}"#, trigger: "manual")
    /// while let current = try store.runRequest(id: request.id), current.status == .queued || current.status == .running {
    ///     Thread.sleep(forTimeInterval: 0.2)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - automationKey: The automation's key (``key(for:)``).
    ///   - inputs: The workflow's inputs as a JSON object, or `nil`.
    ///   - trigger: The run's trigger in the run history: `manual`, `webhook`…
    /// - Returns: The queued request.
    /// - Throws: `StateDatabaseError` or `SQLiteStorageError` naming the database when it cannot be written.
    public func enqueueRun(automationKey: String, inputs: String?, trigger: String) throws -> RunRequest {
        try state.write { connection in
            let now = try now(connection)
            let row = try connection.row(
                "INSERT INTO runRequest (automationKey, inputs, trigger, status, requestedAt) VALUES (?, ?, ?, 'queued', ?) RETURNING id",
                [.text(automationKey), .optional(inputs), .text(trigger), .real(now)])
            return RunRequest(
                id: row?.integer("id") ?? 0, automationKey: automationKey, inputs: inputs, trigger: trigger, status: .queued,
                requestedAt: Date(timeIntervalSince1970: now))
        }
    }

    /// Takes queued requests of the given automations, oldest first, and marks them running
    /// by this daemon, each with the id of the run it starts (``RunRequest/runID``).
    ///
    /// - Parameters:
    ///   - keys: The automations this daemon schedules.
    ///   - limit: How many requests at most.
    ///   - lease: The daemon's lease.
    /// - Returns: The requests taken.
    /// - Throws: ``LeaseLost`` when the lease is no longer valid.
    func takeRunRequests(keys: [String], limit: Int, lease: Lease) throws -> [RunRequest] {
        guard !keys.isEmpty, limit > 0 else { return [] }
        return try state.write { connection in
            let now = try fence(lease, in: connection)
            var taken: [RunRequest] = []
            var start = 0
            while start < keys.count, taken.count < limit {
                let chunk = keys[start..<min(start + 500, keys.count)]
                start += chunk.count
                let rows = try connection.rows(
                    """
                    SELECT * FROM runRequest WHERE status = 'queued' AND automationKey IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ", ")))
                    ORDER BY id LIMIT ?
                    """ + connection.dialect.lockRowsSkippingLocked,
                    chunk.map(SQLValue.text) + [.integer(Int64(limit - taken.count))])
                for row in rows {
                    var request = Self.runRequest(row)
                    request.status = .running
                    request.daemonID = lease.daemonID
                    request.runID = UUID().uuidString.lowercased()
                    request.takenAt = Date(timeIntervalSince1970: now)
                    try connection.execute(
                        "UPDATE runRequest SET status = 'running', daemonID = ?, runID = ?, takenAt = ? WHERE id = ?",
                        [.text(lease.daemonID), .optional(request.runID), .real(now), .integer(request.id)])
                    taken.append(request)
                }
            }
            return taken
        }
    }

    /// Records how a request's run ended. A request no longer running (marked `interrupted`
    /// when its daemon was taken over) is left alone.
    ///
    /// - Parameters:
    ///   - id: The request.
    ///   - status: How it ended.
    ///   - runID: Its run in the run history.
    ///   - output: The run's output as JSON, when it succeeded.
    ///   - error: Why it failed or was cancelled.
    func completeRunRequest(id: Int64, status: RunRequest.Status, runID: String?, output: String?, error: String?) throws {
        try state.write { connection in
            let now = try now(connection)
            try connection.execute(
                """
                UPDATE runRequest SET status = ?, runID = coalesce(?, runID), output = ?, error = ?, endedAt = ?
                WHERE id = ? AND status = 'running'
                """, [.text(status.rawValue), .optional(runID), .optional(output), .optional(error), .real(now), .integer(id)])
        }
    }

    /// A run request as it stands.
    ///
    /// ```swift
    /// if let request = try store.runRequest(id: id), request.status == .succeeded { print(request.output ?? "") }
    /// ```
    ///
    /// - Parameter id: The request (``RunRequest/id``).
    /// - Returns: The request, or `nil` when there is none of that id (or it was pruned, a day after it ended).
    /// - Throws: `StateDatabaseError` or `SQLiteStorageError` naming the database when it cannot be read.
    public func runRequest(id: Int64) throws -> RunRequest? {
        try state.read { connection in
            try connection.row("SELECT * FROM runRequest WHERE id = ?", [.integer(id)]).map(Self.runRequest)
        }
    }

    private static func runRequest(_ row: SQLRow) -> RunRequest {
        RunRequest(
            id: row.integer("id") ?? 0, automationKey: row.text("automationKey") ?? "", inputs: row.text("inputs"),
            trigger: row.text("trigger") ?? "manual", status: row.text("status").flatMap(RunRequest.Status.init(rawValue:)) ?? .interrupted,
            requestedAt: row.date("requestedAt") ?? .distantPast, daemonID: row.text("daemonID"), runID: row.text("runID"),
            takenAt: row.date("takenAt"), endedAt: row.date("endedAt"), output: row.text("output"), error: row.text("error"))
    }
}
