import Foundation
import ShortcutsSystemTestSupport

/// The daemons' shared PostgreSQL database, read with `psql` as an operator would, from outside
/// the daemons.
///
/// ```swift
/// let database = SharedDatabase(url: url, psql: psql, server: server)
/// let claims = try database.claims()
/// ```
struct SharedDatabase: Sendable {
    /// `postgres://user@host:port/name`.
    let url: String
    /// The `psql` executable of the server's installation.
    let psql: URL
    /// The server, whose commits wake a wait for a row.
    let server: PostgresServer

    struct QueryFailed: Error, CustomStringConvertible {
        var sql: String
        var message: String
        var description: String { "psql failed: \(message)\nquery: \(sql)" }
    }

    /// Runs one query; each row's fields as text, `nil` for SQL null.
    func rows(_ sql: String) throws -> [[String?]] {
        let null = "\u{18}"
        let process = Process()
        process.executableURL = psql
        process.arguments = [
            "--no-psqlrc", "--quiet", "--no-align", "--tuples-only", "--set=ON_ERROR_STOP=1",
            "--field-separator=\u{1F}", "--record-separator=\u{1E}", "--pset=null=\(null)", "--dbname=\(url)", "--command=\(sql)"
        ]
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both before waiting, so that a large answer never blocks psql on a full pipe.
        let errorText = ErrorCollector(error.fileHandleForReading)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw QueryFailed(sql: sql, message: errorText.text) }
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\u{1E}", omittingEmptySubsequences: true).compactMap { record in
            let trimmed = record.trimmingCharacters(in: .newlines)
            guard !trimmed.isEmpty else { return nil }
            return trimmed.split(separator: "\u{1F}", omittingEmptySubsequences: false).map { $0 == null ? nil : String($0) }
        }
    }

    /// The single integer a query answers.
    func integer(_ sql: String) throws -> Int {
        guard let text = try rows(sql).first?.first ?? nil, let value = Int(text) else {
            throw QueryFailed(sql: sql, message: "expected one integer")
        }
        return value
    }

    /// Checks a condition, then again after each commit on the server (its write-ahead log
    /// changed; a restarting server writes there too), until it holds; a failing query counts as
    /// "not yet" (the server may be restarting). Blocks the calling thread.
    ///
    /// - Parameter patience: Seconds after which a condition that never held fails the wait.
    /// - Returns: When it held, or `nil` and the last error.
    func poll(timeout patience: TimeInterval, _ condition: (SharedDatabase) throws -> Bool) -> (heldAt: Date?, reason: String) {
        var reason = ""
        let held =
            (try? eventuallyBlocking(watching: [.commits(on: server)], patience: patience) {
                do {
                    return try condition(self)
                } catch {
                    reason = "; the last query failed: \(error)"
                    return false
                }
            }) ?? false
        return held ? (Date(), "") : (nil, reason)
    }
}

/// Reads a pipe to its end on another thread.
private final class ErrorCollector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    var text: String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}

extension SharedDatabase {
    /// A claim of a due time, as the `claim` table holds it.
    struct Claim: Sendable {
        var id: Int64
        var automationKey: String
        var dueTime: Int64
        var status: String
        var runID: String?
        var daemonID: String
        var epoch: Int64?
        var isCatchUp: Bool
        var claimedAt: Double
        var startedAt: Double?
        var endedAt: Double?
        var note: String?

        /// The automation's file name without `.yaml` (`tick-007`).
        var name: String { automationKey.hasSuffix(".yaml") ? String(automationKey.dropLast(5)) : automationKey }
    }

    /// Every claim, in the order they were made.
    func claims() throws -> [Claim] {
        try rows(
            """
            SELECT id, automationKey, dueTime, status, runID, daemonID, epoch, isCatchUp, claimedAt, startedAt, endedAt, note
            FROM claim ORDER BY id
            """
        ).map { row in
            Claim(
                id: Int64(row[0] ?? "") ?? 0, automationKey: row[1] ?? "", dueTime: Int64(row[2] ?? "") ?? 0, status: row[3] ?? "",
                runID: row[4], daemonID: row[5] ?? "", epoch: row[6].flatMap { Int64($0) }, isCatchUp: row[7] == "1" || row[7] == "t",
                claimedAt: Double(row[8] ?? "") ?? 0, startedAt: row[9].flatMap { Double($0) }, endedAt: row[10].flatMap { Double($0) },
                note: row[11])
        }
    }

    /// A run in the shared run history.
    struct Run: Sendable {
        var id: String
        var name: String?
        var trigger: String
        var status: String
        var startedAt: Double
        var endedAt: Double?
        var error: String?
    }

    /// Every run the daemons recorded for their automations.
    func runs() throws -> [Run] {
        try rows("SELECT id, name, trigger, status, startedAt, endedAt, error FROM run WHERE trigger = 'automation' ORDER BY startedAt").map { row in
            Run(
                id: row[0] ?? "", name: row[1], trigger: row[2] ?? "", status: row[3] ?? "", startedAt: Double(row[4] ?? "") ?? 0,
                endedAt: row[5].flatMap { Double($0) }, error: row[6])
        }
    }

    /// A row of the `daemon` table.
    struct Daemon: Sendable {
        var id: String
        var pid: Int
        var epoch: Int64?
        var stoppedAt: Double?
        var settledAt: Double?
        var settledBy: String?
    }

    /// Every daemon that registered.
    func daemons() throws -> [Daemon] {
        try rows("SELECT id, pid, epoch, stoppedAt, settledAt, settledBy FROM daemon ORDER BY startedAt").map { row in
            Daemon(
                id: row[0] ?? "", pid: Int(row[1] ?? "") ?? 0, epoch: row[2].flatMap { Int64($0) }, stoppedAt: row[3].flatMap { Double($0) },
                settledAt: row[4].flatMap { Double($0) }, settledBy: row[5])
        }
    }
}
