import Foundation
import GRDB
import StateStorage

/// One due time of one automation, claimed by a daemon: the row that makes the due time run
/// at most once.
///
/// The table has a unique (automation, due time) pair. A daemon inserts the claim in a
/// write transaction *before* the run starts, and runs only the due times whose insert
/// went through; a second daemon's insert of the same pair is ignored. The claim then follows
/// the run to its end, and links to it in the run history (``runID``).
///
/// ```swift
/// let store = try AutomationStore.shared()
/// if let last = try store.latestClaims()[automation.key] {
///     print(last.dueDate, last.status, last.runID ?? "no run")
/// }
/// ```
public struct Claim: Sendable, Codable, FetchableRecord, PersistableRecord {
    /// Where a claimed due time stands.
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// Waiting for the automation's previous run to end (`overlap: queue`, catch-up runs).
        case queued
        /// Running, or waiting between attempts (`retry:`).
        case running
        /// The run (or one of its attempts) succeeded.
        case succeeded
        /// Every attempt failed; the run history has each attempt's error.
        case failed
        /// Cancelled: the daemon shut down, or a newer run replaced it (`overlap: replace`).
        case cancelled
        /// The last attempt ran longer than `timeout:`.
        case timedOut
        /// The daemon that claimed it died (`kill -9`, crash) before the run ended; found and
        /// marked by the next daemon to start.
        case interrupted
        /// Not run, because the previous run was still going (`overlap: skip`, or a full queue).
        case skipped
        /// Not run, because it passed while no daemon ran (`catchUp: none`, or beyond the
        /// catch-up limit); the ``note`` says how many due times it stands for.
        case missed
    }

    /// The row id.
    public var id: Int64?
    /// The automation (its file's absolute path, ``Automation/key``).
    public var automationKey: String
    /// The due time, in whole seconds since 1970.
    public var dueTime: Int64
    /// Where the due time stands.
    public var status: Status
    /// The run in the run history (the last attempt's), if one was started.
    public var runID: String?
    /// The daemon that claimed it.
    public var daemonID: String
    /// Whether it runs because it was missed while no daemon ran (`catchUp:`).
    public var isCatchUp: Bool
    /// How many attempts were started.
    public var attempts: Int
    /// When the claim was written, in seconds since 1970.
    public var claimedAt: Double
    /// When the first attempt started, in seconds since 1970.
    public var startedAt: Double?
    /// When the run ended, in seconds since 1970.
    public var endedAt: Double?
    /// Why it was skipped, missed, cancelled or interrupted, for people.
    public var note: String?
    /// The lease epoch of its daemon when it was claimed (``Lease/epoch``); 0 before leases.
    public var epoch: Int64 = 0
    /// Whether another daemon's run replaced it (`overlap: replace`) while it ran: its daemon
    /// stops it when it next looks (``AutomationStore/cancellations(for:)``).
    public var isCancelRequested = false

    /// The due time as a date.
    public var dueDate: Date { Date(timeIntervalSince1970: Double(dueTime)) }

    public static let databaseTableName = "claim"

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, automationKey, dueTime, status, runID, daemonID, isCatchUp, attempts, claimedAt, startedAt, endedAt, note, epoch
        case isCancelRequested = "cancelRequested"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Claim {
    /// A claim read through a ``StateConnection`` (`SELECT * FROM claim`).
    init(row: SQLRow) {
        id = row.integer("id")
        automationKey = row.text("automationKey") ?? ""
        dueTime = row.integer("dueTime") ?? 0
        status = row.text("status").flatMap(Status.init(rawValue:)) ?? .interrupted
        runID = row.text("runID")
        daemonID = row.text("daemonID") ?? ""
        isCatchUp = row.bool("isCatchUp")
        attempts = row.int("attempts") ?? 0
        claimedAt = row.real("claimedAt") ?? 0
        startedAt = row.real("startedAt")
        endedAt = row.real("endedAt")
        note = row.text("note")
        epoch = row.integer("epoch") ?? 0
        isCancelRequested = row.bool("cancelRequested")
    }
}
