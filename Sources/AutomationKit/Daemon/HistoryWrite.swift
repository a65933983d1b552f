import Foundation
import WorkflowKit

/// A record the daemon writes to the run history itself (rather than through a run), kept
/// and written again while the database cannot be reached (see ``RetryingWriter``).
enum HistoryWrite: Sendable {
    /// Marks runs that are still running as having ended with a status.
    case mark([String], status: RunHistory.Status, error: String)
    /// Records the end of one run.
    case finish(String, status: RunHistory.Status, error: String?)
    /// Records how a run ended, with its output and steps, when its runner could not.
    case record(RunEndRecord)
    /// Adds runs that ended before their start was recorded, as ended with a status; runs
    /// already recorded are left as they are.
    case recordUnbegun([UnbegunRun], status: RunHistory.Status, error: String)
}

/// A run a claim names whose start may not have been recorded: its daemon died between
/// claiming the due time and recording the run.
struct UnbegunRun: Sendable {
    var file: String
    var name: String?
    var id: String
    var startedAt: Date
}

extension DaemonEngine {
    /// Writes history records in order.
    func writeHistory(_ records: [HistoryWrite]) throws {
        for record in records {
            switch record {
            case .mark(let ids, let status, let error):
                guard !ids.isEmpty else { continue }
                _ = try history.mark(ids, as: status, error: error)
            case .finish(let id, let status, let error):
                try history.finish(id, status: status, output: nil, error: error, steps: [])
            case .record(let end):
                try history.finish(end.runID, status: end.status, output: end.output, error: end.error, steps: end.steps, trigger: end.trigger)
            case .recordUnbegun(let runs, let status, let error):
                try history.recordUnbegun(
                    runs.map { (file: $0.file, name: $0.name, id: $0.id, startedAt: $0.startedAt) }, trigger: "automation", status: status,
                    error: error)
            }
        }
    }

    /// Writes claim endings under the current lease; endings of claims this daemon no longer
    /// holds are dropped by the store.
    func finish(_ batch: [ClaimEnding]) throws {
        // Without a lease the daemon is registering again: the claims of the lost lease were
        // settled by another daemon, and their endings are dropped.
        guard let lease = currentLease else { return }
        try store.finish(batch, lease: lease)
    }
}
