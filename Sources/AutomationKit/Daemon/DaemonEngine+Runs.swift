import Foundation
import IntentKit
import WorkflowKit

/// Running one claimed due time: attempts, timeout, retry with backoff, and the records.
extension DaemonEngine {
    /// Runs a claimed due time's attempts, records how it ended, and lets the automation's
    /// next waiting due time start.
    func perform(_ activity: RunActivity) async {
        let automation = activity.automation
        let claim = activity.claim
        let attempts = automation.settings.retry?.attempts ?? 1
        var status = Claim.Status.failed
        var note: String?
        var runID = claim.runID ?? Self.newRunID()
        var startedAt: Date?
        var attempt = 0
        attempts: while attempt < attempts {
            attempt += 1
            if attempt > 1 {
                if let backoff = automation.settings.retry?.backoff {
                    condition.withLock { activity.isWaitingToRetry = true }
                    let slept: Void? = try? await Task.sleep(for: backoff)
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
            let now = Date()
            if startedAt == nil { startedAt = now }
            // The claim inserted as running already names the first attempt's run; a queued
            // claim that starts, and each retry, record their run before it begins, so that a
            // daemon that dies now leaves the run findable.
            if attempt > 1 || claim.status == .queued {
                try? store.started(claim.id ?? 0, runID: runID, attempt: attempt, firstStartedAt: startedAt ?? now)
            }
            log("\(automation.name): due \(Self.format(claim.dueDate)), run \(runID.prefix(8)) started"
                + (attempts > 1 ? " (attempt \(attempt) of \(attempts))" : "") + (claim.isCatchUp ? " (catch-up)" : ""))
            let log = self.log
            let name = automation.name
            let outcome = await automation.attempt(runID: runID, catalog: configuration.catalog, history: history,
                                                   locale: configuration.locale, trigger: "automation") { text in log("\(name): \(text)") }
            let took = Self.format(Duration.seconds(Date().timeIntervalSince(now)))
            switch outcome {
            case .succeeded:
                status = .succeeded
                log("\(automation.name): run \(runID.prefix(8)) succeeded in \(took)")
                break attempts
            case .failed(let message):
                status = .failed
                note = Self.summary(of: message)
                log("\(automation.name): run \(runID.prefix(8)) failed in \(took):\n\(message)")
            case .timedOut:
                status = .timedOut
                note = "timed out after \(Self.format(automation.settings.timeout?.value ?? .zero))"
                log("\(automation.name): run \(runID.prefix(8)) \(note ?? "")")
            case .cancelled:
                status = .cancelled
                log("\(automation.name): run \(runID.prefix(8)) cancelled after \(took)")
                break attempts
            }
        }
        if status == .cancelled {
            note = condition.withLock { activity.cancelReason } ?? "cancelled"
        }
        try? store.finished(claim.id ?? 0, status: status, note: note, runID: attempt > 0 ? runID : nil,
                            attempts: attempt, startedAt: startedAt, at: Date())
        condition.withLock {
            activities[ObjectIdentifier(activity)] = nil
            activity.schedule.remove(activity)
            pump(activity.schedule)
            condition.broadcast()
        }
    }

    /// The first line of an error, without its location: `'Library.AddBook' needs an answer…`.
    static func summary(of message: String) -> String {
        let line = message.split(separator: "\n").first.map(String.init) ?? message
        guard let range = line.range(of: ": error: ") else { return line }
        return String(line[range.upperBound...])
    }
}
