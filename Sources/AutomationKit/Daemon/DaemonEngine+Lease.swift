import Clockwork
import Foundation
import Logging
import WorkflowKit

/// The heartbeat: renewing the lease, settling the claims of daemons whose lease expired, and
/// polling for what other daemons decided (cancellations, promotions, run requests).
extension DaemonEngine {
    /// How often the heartbeat thread wakes up: run requests are taken at least this often.
    static let requestPollInterval: TimeInterval = 1

    /// When the lease is renewed and others' claims may be settled.
    var leaseTerms: LeaseTerms { LeaseTerms(duration: configuration.lease) }

    /// The lease is renewed every quarter of its duration.
    var renewalInterval: TimeInterval { leaseTerms.renewalInterval }

    /// Wakes up every second at most; renews the lease every quarter of it, and does the rest
    /// of the heartbeat's work after each renewal.
    func heartbeatLoop() {
        let tick = min(Self.requestPollInterval, renewalInterval)
        var nextRenewal = localNow.addingTimeInterval(renewalInterval)
        while true {
            let (stopping, isRunning) = condition.withLock { () -> (Bool, Bool) in
                if !isHeartbeatStopping { _ = clock.local.wait(on: condition, until: min(localNow.addingTimeInterval(tick), nextRenewal)) }
                return (isHeartbeatStopping, lifecycle == .running)
            }
            if stopping { break }
            if localNow >= nextRenewal {
                nextRenewal = localNow.addingTimeInterval(renewalInterval)
                beat(isRunning: isRunning)
            }
            if isRunning { takeRunRequests() }
        }
        condition.withLock {
            isHeartbeatRunning = false
            condition.broadcast()
        }
    }

    /// One heartbeat: renew, then (while running) take over dead daemons, apply cancellations
    /// and promote waiting due times.
    func beat(isRunning: Bool) {
        guard renew() else { return }
        refreshDaemons()
        applyCancellations()
        guard isRunning else { return }
        takeOverExpiredDaemons()
        promoteWaiting(condition.withLock { Array(entries.values) })
    }

    /// Renews the lease; a lost lease makes the daemon drop what it holds and register again.
    /// - Returns: Whether the daemon holds a lease.
    func renew() -> Bool {
        leaseLock.lock()
        defer { leaseLock.unlock() }
        guard let held = currentLease else { return registerAgain() }
        let sent = localNow
        do {
            guard let renewed = try store.renew(held) else {
                leaseLostDetected()
                return currentLease != nil
            }
            if store.isShared { clock.measure(databaseNow: renewed.databaseNow, sent: sent, received: localNow) }
            let wasInterrupted = condition.withLock { () -> Bool in
                // A renewal of another epoch (lost and registered again meanwhile) is stale.
                guard lease?.epoch == renewed.epoch else { return false }
                lease = renewed
                defer { if leaseHeldSince == nil { leaseHeldSince = localNow } }
                return leaseHeldSince == nil
            }
            if wasInterrupted {
                log("the lease is renewed again (epoch \(renewed.epoch))")
                retryBacklogNow()
            }
            return true
        } catch {
            let first = condition.withLock { () -> Bool in
                defer { leaseHeldSince = nil }
                return leaseHeldSince != nil
            }
            if first { log("cannot renew the daemon's lease: \(error)", level: .error) }
            return false
        }
    }

    /// The store said the lease is no longer this daemon's: another daemon found it expired
    /// (the daemon was paused, or cut off from the database) and settled its claims. Every
    /// activity stops, since its claim is no longer the daemon's; the daemon registers again
    /// with a new epoch and schedules from now, catch-up by policy.
    func leaseLostDetected() {
        let (lost, cancelled) = condition.withLock { () -> (Lease?, Int) in
            let lost = lease
            lease = nil
            leaseHeldSince = nil
            let reason = "cancelled: the daemon lost its lease and another daemon settled its claims"
            for activity in activities.values { activity.cancel(reason: reason) }
            for entry in entries.values {
                for activity in entry.waiting { activity.cancel(reason: reason) }
                entry.waiting.removeAll()
            }
            condition.broadcast()
            return (lost, activities.count)
        }
        guard let lost else { return }
        log(
            "lost the daemon's lease (epoch \(lost.epoch)): another daemon settled its claims; "
                + "cancelling \(cancelled) running workflows and registering again", level: .warning)
        _ = registerAgain()
    }

    /// Registers with a new epoch and schedules every automation from its cursor.
    /// - Returns: Whether the daemon holds a lease again.
    private func registerAgain() -> Bool {
        let granted: Lease
        do {
            granted = try register()
        } catch {
            log("cannot register the daemon again: \(error)", level: .error)
            return false
        }
        let isRunning = condition.withLock { () -> Bool in
            lease = granted
            leaseHeldSince = localNow
            return lifecycle == .running
        }
        log("registered again with a new lease (epoch \(granted.epoch))", level: .warning)
        guard isRunning else { return true }
        let automations = condition.withLock { entries.values.map(\.automation) }
        let now = clock.now()
        guard let cursors = try? self.cursors(for: automations, now: now) else { return true }
        let claims = condition.withLock { () -> [PendingClaim] in
            var claims: [PendingClaim] = []
            for entry in entries.values.sorted(by: { $0.storeKey < $1.storeKey }) where entry.automation.schedule?.runsAtStart != true {
                entry.generation = takeGeneration()
                claims += resume(entry, cursor: cursors[entry.storeKey], now: now)
            }
            condition.broadcast()
            return claims
        }
        process(claims)
        return true
    }

    /// Reads which daemons are alive, for ranking due times among them.
    func refreshDaemons() {
        guard let daemons = try? store.daemons() else { return }
        let live = daemons.filter { $0.isAlive && $0.stoppedAt == nil && $0.settledAt == nil }.map(\.id)
        let ranking = RendezvousRanking(daemons: live + (currentLease == nil ? [] : [daemonID]))
        condition.withLock { self.ranking = ranking }
    }

    /// Settles the claims of daemons whose lease expired, once this daemon has held its own
    /// for a whole lease duration (so that a daemon just back from an outage of its own does
    /// not judge others by it).
    private func takeOverExpiredDaemons() {
        let (lease, heldSince) = condition.withLock { (self.lease, leaseHeldSince) }
        guard let lease, leaseTerms.maySettleOthers(heldSince: heldSince, now: localNow) else { return }
        do {
            for daemon in try store.expiredDaemons(now: lease) where daemon.id != daemonID {
                guard let claims = try store.takeOver(daemon.id, by: lease) else { continue }
                log(
                    "the lease of \(describe(daemon)) expired"
                        + (claims.isEmpty ? "" : ": settling its \(claims.count) claims queued or running"), level: .warning)
                settle(claims, of: describe(daemon))
            }
        } catch {
            log("cannot check for daemons whose lease expired: \(error)", level: .error)
        }
    }

    /// How messages name another daemon.
    func describe(_ daemon: DaemonInfo) -> String {
        "the daemon with pid \(daemon.pid)" + (store.isShared ? " on \(daemon.host)" : "")
    }

    /// Settles claims a dead daemon left queued or running. A claim whose run ended (the
    /// daemon died before recording it) takes the run's status; the others, and their runs,
    /// are marked interrupted.
    func settle(_ claims: [Claim], of name: String) {
        guard !claims.isEmpty else { return }
        let now = localNow
        var interrupted: [Claim] = []
        var settled: [ClaimEnding] = []
        for claim in claims {
            let run = claim.status == .running ? claim.runID.flatMap { try? history.run(matching: $0).run } : nil
            switch ClaimSettlement(claim, run: run, now: now, by: name) {
            case .ended(let ending): settled.append(ending)
            case .interrupted: interrupted.append(claim)
            }
        }
        do {
            try store.settle(settled)
            let running = interrupted.filter { $0.status == .running }
            let message = "interrupted: \(name) stopped while it ran (killed or crashed)"
            // A run the dead daemon claimed but had not recorded yet is recorded as interrupted,
            // so that every claim's run can be found in the history. Written now, not queued
            // behind this daemon's own records: a paused daemon that resumes must find its runs
            // settled, so that its late endings are dropped. Queued when the history cannot be
            // written now.
            let marks: [HistoryWrite] = [
                .mark(running.compactMap(\.runID), status: .interrupted, error: message),
                .recordUnbegun(running.compactMap(unbegunRun), status: .interrupted, error: message)
            ]
            do {
                try writeHistory(marks)
            } catch {
                for mark in marks { historyWrites.record(mark) }
            }
            try store.markInterrupted(running.compactMap(\.id), note: message, at: now)
            metrics.recordClaims(.interrupted, count: running.count)
            let queued = interrupted.filter { $0.status == .queued }
            try store.markInterrupted(queued.compactMap(\.id), note: "interrupted: \(name) stopped before it ran (killed or crashed)", at: now)
            metrics.recordClaims(.interrupted, count: queued.count)
        } catch {
            log("cannot settle the claims of \(name): \(error)", level: .error)
        }
        if !interrupted.isEmpty {
            log(
                "\(name) stopped without finishing \(interrupted.count) due times: marked interrupted ("
                    + interrupted.map { "\(self.name(ofStoreKey: $0.automationKey)) due \(Self.format($0.dueDate))" }.joined(separator: ", ") + ")",
                level: .warning)
        }
        if !settled.isEmpty {
            log("\(name) stopped before recording how \(settled.count) due times ended: taken from the run history")
        }
    }

    /// Stops this daemon's runs that another daemon's claim replaced (`overlap: replace`), and
    /// forgets its waiting due times that are no longer queued.
    private func applyCancellations() {
        guard let lease = currentLease else { return }
        let decided: (stop: [Int64], dropped: [Int64])
        do {
            decided = try store.cancellations(for: lease)
        } catch {
            return
        }
        guard !decided.stop.isEmpty || !decided.dropped.isEmpty else { return }
        let stop = Set(decided.stop)
        let dropped = Set(decided.dropped)
        condition.withLock {
            for activity in activities.values where activity.claim.id.map(stop.contains) == true {
                activity.cancel(reason: "replaced by a newer run (overlap: replace)")
            }
            for entry in entries.values {
                entry.waiting.removeAll { $0.claim.id.map(dropped.contains) == true }
            }
        }
    }

    /// Starts the first waiting due time of each automation none of whose runs is going here,
    /// when the store agrees that none is going anywhere.
    func promoteWaiting(_ candidates: [ScheduledAutomation]) {
        for entry in candidates {
            let head = condition.withLock { () -> RunActivity? in
                guard lifecycle == .running, entry.running.isEmpty, let head = entry.waiting.first, head.isConfirmed else { return nil }
                return head
            }
            guard let head, let id = head.claim.id, let lease = currentLease else { continue }
            let promoted: Bool
            do {
                promoted = try store.promote(id, lease: lease)
            } catch {
                continue
            }
            guard promoted else { continue }
            let cancelled = condition.withLock { () -> RunActivity? in
                // Started meanwhile by the automation's last run ending here, or dropped.
                guard entry.waiting.first === head else { return nil }
                guard lifecycle == .running, head.cancelReason == nil else {
                    head.cancel(reason: head.cancelReason ?? "the daemon stopped before it started")
                    entry.remove(head)
                    return head
                }
                entry.waiting.removeFirst()
                entry.running.append(head)
                launch(head)
                return nil
            }
            if let cancelled { recordCancelled([cancelled]) }
        }
    }

    /// The run a running claim names, as the run history would have it recorded.
    private func unbegunRun(of claim: Claim) -> UnbegunRun? {
        guard let id = claim.runID else { return nil }
        let automation = condition.withLock { entries.values.first { $0.storeKey == claim.automationKey }?.automation }
        return UnbegunRun(
            file: automation?.fileName ?? claim.automationKey, name: name(ofStoreKey: claim.automationKey), id: id,
            startedAt: Date(timeIntervalSince1970: claim.startedAt ?? claim.claimedAt))
    }

    /// The name of an automation by its store key, for messages.
    func name(ofStoreKey key: String) -> String {
        condition.withLock { entries.values.first { $0.storeKey == key }?.automation.name } ?? URL(fileURLWithPath: key).lastPathComponent
    }
}
