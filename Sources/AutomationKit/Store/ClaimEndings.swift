import Foundation

/// How a claimed due time ended, to record in its ``Claim``.
struct ClaimEnding: Sendable {
    var id: Int64
    var status: Claim.Status
    var note: String?
    var runID: String?
    var attempts: Int
    var startedAt: Date?
    var endedAt: Date
}

/// Records how claims ended, many per transaction.
///
/// Runs end on the daemon's worker threads; writing each ending in a transaction of its own
/// would make hundreds of runs a second wait on one another for the database. Endings are
/// queued instead, and one writer records all those queued in one transaction, as soon as it
/// can. If the daemon is killed before an ending is written, its claim stays `running`; the
/// next daemon then takes the ending from the run history (see `DaemonEngine`), or marks the
/// claim `interrupted` when the run had not ended.
///
/// ```swift
/// let endings = ClaimEndings(store: store) { print($0) }
/// endings.record(ClaimEnding(id: claim.id!, status: .succeeded, ..., endedAt: .now))
/// endings.flush()   // before the daemon exits
/// ```
final class ClaimEndings: @unchecked Sendable {
    private let store: AutomationStore
    private let log: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "shortcuts.automations.claim-endings")
    private let lock = NSLock()
    private var pending: [ClaimEnding] = []
    private var isWriteScheduled = false

    init(store: AutomationStore, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.log = log
    }

    /// Queues an ending; it is written shortly, with the others queued by then.
    func record(_ ending: ClaimEnding) {
        let schedule = lock.withLock { () -> Bool in
            pending.append(ending)
            defer { isWriteScheduled = true }
            return !isWriteScheduled
        }
        if schedule { queue.async { self.write() } }
    }

    /// Writes every ending queued so far, and returns once they are written.
    func flush() {
        queue.sync { write() }
    }

    private func write() {
        let batch = lock.withLock { () -> [ClaimEnding] in
            defer {
                pending = []
                isWriteScheduled = false
            }
            return pending
        }
        do {
            try store.finish(batch)
        } catch {
            log("cannot record how \(batch.count) due times ended: \(error)")
        }
    }
}
