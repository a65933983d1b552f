import Foundation
import WorkflowKit

/// What a claim that a dead daemon left queued or running becomes: a value, decided from the
/// claim and its run's record alone.
///
/// A running claim whose run ended (the daemon died after the run, before recording the
/// claim's ending) takes the run's status and times; every other claim is interrupted: a
/// queued one never ran, a running one's run was cut short (or never recorded).
///
/// ```swift
/// switch ClaimSettlement(claim, run: try history.run(matching: claim.runID ?? "")?.run, now: now, by: "the daemon with pid 42") {
/// case .ended(let ending): endings.append(ending)
/// case .interrupted: interrupted.append(claim)
/// }
/// ```
enum ClaimSettlement: Equatable {
    /// The claim ends as its run did.
    case ended(ClaimEnding)
    /// The claim, and its run if it had one, are interrupted.
    case interrupted

    /// Decides a claim.
    ///
    /// - Parameters:
    ///   - claim: A claim the dead daemon left queued or running.
    ///   - run: The run history's record of the claim's run, if there is one.
    ///   - now: The time an ended run without an end time is taken to have ended.
    ///   - daemon: How notes name the dead daemon.
    init(_ claim: Claim, run: RunHistory.Run?, now: Date, by daemon: String) {
        guard claim.status == .running, claim.runID != nil, let run, run.status != .running, run.status != .interrupted, let id = claim.id
        else {
            self = .interrupted
            return
        }
        let status: Claim.Status =
            switch run.status {
            case .succeeded: .succeeded
            case .cancelled: .cancelled
            default: .failed
            }
        self = .ended(
            ClaimEnding(
                id: id, status: status, note: "recorded from the run history after \(daemon) stopped",
                runID: nil, attempts: claim.attempts, startedAt: run.startedAt, endedAt: run.endedAt ?? now))
    }
}
