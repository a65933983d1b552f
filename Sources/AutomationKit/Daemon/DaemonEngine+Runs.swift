import Clockwork
import Foundation
import IntentKit
import Logging
import WorkflowKit

/// Running one claimed due time: attempts, timeout, retry with backoff, and the records.
extension DaemonEngine {
    /// Runs a claimed due time's attempts, records how it ended, and lets the automation's
    /// next waiting due time start.
    func perform(_ activity: RunActivity) async {
        let automation = activity.automation
        let claim = activity.claim
        let begunAt = condition.withLock { activity.begunAt }
        var status = Claim.Status.failed
        var note: String?
        var runID = claim.runID ?? Self.newRunID()
        var startedAt: Date?
        var attempt = 0
        var isSettledElsewhere = false
        let name = automation.name
        attempts: while attempt < automation.attempts {
            attempt += 1
            if attempt > 1 {
                if let backoff = automation.backoff {
                    condition.withLock { activity.isWaitingToRetry = true }
                    let slept: Void? = try? await clock.local.sleep(for: backoff)
                    condition.withLock { activity.isWaitingToRetry = false }
                    if slept == nil {
                        status = .cancelled
                        attempt -= 1
                        break attempts
                    }
                }
                let stopping = condition.withLock { lifecycle != .running }
                if Task.isCancelled || stopping {
                    status = .cancelled
                    attempt -= 1
                    break attempts
                }
                runID = Self.newRunID()
            }
            var isBegun = attempt == 1 && begunAt != nil
            let now = isBegun ? begunAt ?? localNow : localNow
            if startedAt == nil {
                startedAt = now
                if !claim.isCatchUp { metrics.recordLateness(clock.now().timeIntervalSince(claim.dueDate)) }
            }
            // A claim inserted as running names its first attempt's run, recorded as started
            // with the others of its instant; a queued claim that starts, and each retry,
            // record their run in the claim before it begins, so that a daemon that dies now
            // leaves the run findable.
            if attempt > 1 || claim.status == .queued, let lease = currentLease {
                do {
                    guard try store.start(claim.id ?? 0, runID: runID, attempt: attempt, firstStartedAt: startedAt ?? now, lease: lease) else {
                        // Another daemon settled the claim (this one lost its lease): not ours to run.
                        log("\(name): due \(Self.format(claim.dueDate)) is no longer this daemon's to run", level: .warning)
                        isSettledElsewhere = true
                        attempt -= 1
                        status = .cancelled
                        break attempts
                    }
                } catch {
                    log("\(name): cannot record the start of run \(runID.prefix(8)): \(error)", level: .error)
                }
            }
            let workflow: Workflow
            switch self.workflow(for: activity) {
            case .success(let loaded):
                workflow = loaded
            case .failure(let error):
                // The file changed since it was scheduled, and no longer validates.
                let message = error.rendered()
                historyWrites.record(
                    isBegun
                        ? .finish(runID, status: .failed, error: message)
                        : .recordUnbegun(
                            [UnbegunRun(file: automation.fileName, name: automation.name, id: runID, startedAt: now)], status: .failed,
                            error: message))
                status = .failed
                note = Self.summary(of: message)
                log("\(name): due \(Self.format(claim.dueDate)) cannot run:\n\(message)", level: .error)
                break attempts
            }
            if !isBegun {
                switch await recordStart(of: runID, for: automation) {
                case .begun:
                    isBegun = true
                case .settledElsewhere:
                    log("\(name): due \(Self.format(claim.dueDate)) is no longer this daemon's to run", level: .warning)
                    isSettledElsewhere = true
                    attempt -= 1
                    status = .cancelled
                    break attempts
                case .stopped:
                    historyWrites.record(
                        .recordUnbegun(
                            [UnbegunRun(file: automation.fileName, name: automation.name, id: runID, startedAt: now)], status: .cancelled,
                            error: condition.withLock { activity.cancelReason } ?? "cancelled"))
                    status = .cancelled
                    break attempts
                case .failed(let message):
                    status = .failed
                    note = message
                    log("\(name): due \(Self.format(claim.dueDate)) cannot run: \(message)", level: .error)
                    break attempts
                }
            }
            log(
                "\(name): due \(Self.format(claim.dueDate)), run \(runID.prefix(8)) started"
                    + (automation.attempts > 1 ? " (attempt \(attempt) of \(automation.attempts))" : "") + (claim.isCatchUp ? " (catch-up)" : ""))
            let began = localNow
            let outcome = await automation.attempt(
                workflow, runID: runID, isBegun: isBegun, catalog: configuration.catalog, history: history,
                secrets: configuration.secrets, locale: configuration.locale, trigger: "automation",
                isLast: attempt == automation.attempts, clock: clock.local,
                recordsLater: { [historyWrites] end in historyWrites.record(.record(end)) }, metrics: metrics.runs,
                show: { [self] text in log("\(name): \(text)") })
            let took = Self.format(clock.local.elapsed(since: began))
            switch outcome {
            case .succeeded:
                status = .succeeded
                log("\(name): run \(runID.prefix(8)) succeeded in \(took)")
            case .failed(let message):
                status = .failed
                note = Self.summary(of: message)
                log("\(name): run \(runID.prefix(8)) failed in \(took):\n\(message)", level: .error)
            case .timedOut:
                status = .timedOut
                note = "timed out after \(Self.format(automation.timeout ?? .zero))"
                log("\(name): run \(runID.prefix(8)) \(note ?? "")")
            case .cancelled:
                status = .cancelled
                log("\(name): run \(runID.prefix(8)) cancelled after \(took)")
            }
            guard case .retry = AttemptDecision(after: outcome, attempt: attempt, of: automation.attempts, backoff: automation.backoff) else {
                break attempts
            }
        }
        if status == .cancelled {
            note = condition.withLock { activity.cancelReason } ?? "cancelled"
        }
        if !isSettledElsewhere {
            endings.record(
                ClaimEnding(
                    id: claim.id ?? 0, status: status, note: note, runID: attempt > 0 ? runID : nil,
                    attempts: attempt, startedAt: startedAt, endedAt: localNow))
        }
        let next = automation.nextDueTime(after: localNow)
        let entry = activity.schedule
        let hasWaiting = condition.withLock { () -> Bool in
            activities[ObjectIdentifier(activity)] = nil
            recordRunning()
            entry.remove(activity)
            if next.map({ $0.timeIntervalSince(localNow) > Self.workflowCacheHorizon }) ?? true { entry.cachedWorkflow = nil }
            condition.broadcast()
            return entry.running.isEmpty && !entry.waiting.isEmpty
        }
        if hasWaiting {
            // The store promotes a queued claim only when no claim of the automation is
            // running: this one's ending goes first.
            endings.flush(within: 1)
            promoteWaiting([entry])
        }
    }

    /// How recording the start of a run ended.
    enum StartRecord: Equatable {
        case begun
        /// Another daemon recorded the run first: it settled the claim after this daemon's
        /// lease expired.
        case settledElsewhere
        /// The daemon stopped, or the run was cancelled, while the database could not be reached.
        case stopped
        /// The database refused the record.
        case failed(String)
    }

    /// Records the start of a run that is not recorded yet — a retry, a queued due time that
    /// starts, or a due time whose start could not be recorded with the others of its instant —
    /// trying again with ``RetryBackoff`` while the database cannot be reached: a claimed due
    /// time runs late rather than failing for an outage, and never runs unrecorded.
    func recordStart(of runID: String, for automation: Automation) async -> StartRecord {
        var backoff = RetryBackoff()
        var isLogged = false
        while true {
            do {
                let begun = try history.begin([(file: automation.fileName, name: automation.name, id: runID)], trigger: "automation")
                if isLogged { log("\(automation.name): the start of run \(runID.prefix(8)) is recorded: it starts") }
                return begun.alreadyRecorded.contains(runID) ? .settledElsewhere : .begun
            } catch  where RetryBackoff.isTransient(error) {
                if !isLogged {
                    log(
                        "\(automation.name): cannot record the start of run \(runID.prefix(8)) for now, "
                            + "trying again until the database answers: \(error)", level: .warning)
                    isLogged = true
                }
                let wait = backoff.failed()
                let stopping = condition.withLock { lifecycle != .running }
                if stopping || Task.isCancelled { return .stopped }
                do { try await clock.local.sleep(for: .seconds(wait)) } catch { return .stopped }
            } catch {
                return .failed("cannot record the start of run \(runID.prefix(8)): \(error)")
            }
        }
    }

    /// The workflow of a run: the one kept in memory, or the file read and validated again
    /// (and kept when the automation's next due time is near).
    private func workflow(for activity: RunActivity) -> Result<Workflow, DiagnosticError> {
        let entry = activity.schedule
        let automation = activity.automation
        if let cached = condition.withLock({ entry.automation === automation ? entry.cachedWorkflow : nil }) {
            return .success(cached.workflow)
        }
        do {
            let workflow = try automation.loadWorkflow(catalog: configuration.catalog)
            if let next = automation.nextDueTime(after: localNow), next.timeIntervalSince(localNow) < Self.workflowCacheHorizon {
                condition.withLock {
                    if entry.automation === automation { entry.cachedWorkflow = WorkflowBox(workflow) }
                }
            }
            return .success(workflow)
        } catch {
            return .failure(error)
        }
    }

    /// The first line of an error, without its location: `'Library.AddBook' needs an answer…`.
    static func summary(of message: String) -> String {
        let line = message.split(separator: "\n").first.map(String.init) ?? message
        guard let range = line.range(of: ": error: ") else { return line }
        return String(line[range.upperBound...])
    }
}
