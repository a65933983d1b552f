import Clockwork
import Foundation

/// Writes records in the order they come, many per call, on a queue of its own; while the
/// database cannot be reached it keeps them and tries again with ``RetryBackoff``, so that
/// nothing is lost to an outage.
///
/// Runs end on the daemon's worker threads; writing each ending in a transaction of its own
/// would make hundreds of runs a second wait on one another for the database. Records are
/// queued instead, and one writer writes all those queued in one call, as soon as it can. A
/// record the database refuses for another reason (a failed statement) is logged and
/// dropped. If the daemon is killed before a claim's ending is written, its claim stays
/// `running`; the daemon that settles it then takes the ending from the run history (see
/// `DaemonEngine`), or marks the claim `interrupted` when the run had not ended.
///
/// ```swift
/// let endings = RetryingWriter<ClaimEnding>(label: "how due times ended", clock: .system, log: { print($0) }) { try store.finish($0, lease: lease) }
/// endings.record(ClaimEnding(id: claim.id!, status: .succeeded, ..., endedAt: .now))
/// endings.flush(within: 10)   // before the daemon exits
/// ```
final class RetryingWriter<Record: Sendable>: @unchecked Sendable {
    private let label: String
    private let writeBatch: ([Record]) throws -> Void
    private let log: @Sendable (String) -> Void
    private let clock: any EngineClock
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var pending: [Record] = []
    private var isWriteScheduled = false
    private var backoff = RetryBackoff()

    /// - Parameters:
    ///   - label: What it writes, for messages: `how due times ended`.
    ///   - clock: What the backoff between tries waits by.
    ///   - log: Receives one message per failure.
    ///   - write: Writes records in order, in one transaction when it can.
    init(label: String, clock: any EngineClock, log: @escaping @Sendable (String) -> Void, write: @escaping ([Record]) throws -> Void) {
        self.label = label
        self.clock = clock
        self.writeBatch = write
        self.log = log
        queue = DispatchQueue(label: "shortcuts.automations.\(label.replacingOccurrences(of: " ", with: "-"))")
    }

    /// How many records wait to be written.
    var backlog: Int { lock.withLock { pending.count } }

    /// Queues a record; it is written shortly, with the others queued by then.
    func record(_ record: Record) {
        self.record([record])
    }

    /// Queues records, in order.
    func record(_ records: [Record]) {
        guard !records.isEmpty else { return }
        let schedule = lock.withLock { () -> Bool in
            pending += records
            defer { isWriteScheduled = true }
            return !isWriteScheduled
        }
        if schedule { queue.async { self.write() } }
    }

    /// Writes every record queued so far, trying again while the database cannot be reached,
    /// for at most `seconds` by the writer's clock; returns how many records are still not
    /// written.
    @discardableResult
    func flush(within seconds: TimeInterval) -> Int {
        let deadline = clock.now().addingTimeInterval(seconds)
        while true {
            let left = queue.sync { () -> Int in
                write(isRetrying: false)
                return lock.withLock { pending.count }
            }
            let now = clock.now()
            if left == 0 || now >= deadline { return left }
            clock.pause(until: min(now.addingTimeInterval(RetryBackoff.shortest), deadline))
        }
    }

    /// Writes what is queued; on a transient failure keeps it in front of what came since and
    /// tries again after the backoff. Runs on `queue`.
    private func write(isRetrying: Bool = true) {
        let batch = lock.withLock { () -> [Record] in
            defer {
                pending = []
                isWriteScheduled = isRetrying ? false : isWriteScheduled
            }
            return pending
        }
        guard !batch.isEmpty else { return }
        do {
            try writeBatch(batch)
            lock.withLock { backoff.succeeded() }
        } catch  where RetryBackoff.isTransient(error) {
            let (wait, failures) = lock.withLock { () -> (TimeInterval, Int) in
                pending = batch + pending
                let wait = backoff.failed()
                return (wait, backoff.failures)
            }
            if failures == 1 {
                log("cannot record \(label) (\(batch.count)) for now, trying again until the database answers: \(error)")
            }
            guard isRetrying else { return }
            let schedule = lock.withLock { () -> Bool in
                defer { isWriteScheduled = true }
                return !isWriteScheduled
            }
            if schedule {
                Task.detached { [clock, queue] in
                    try? await clock.sleep(for: .seconds(wait))
                    queue.async { self.write() }
                }
            }
        } catch {
            log("cannot record \(label) (\(batch.count)): \(error)")
        }
    }
}
