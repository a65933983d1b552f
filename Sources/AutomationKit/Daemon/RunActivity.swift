import Foundation
import WorkflowKit

/// An automation as the daemon schedules it: its definition, and its claimed due times that
/// are running or waiting. Guarded by the engine's lock.
final class ScheduledAutomation: @unchecked Sendable {
    var automation: Automation
    /// The automation's key in the store (``AutomationStore/key(for:)``): its path relative
    /// to the workflows folder when the store is shared by several machines.
    var storeKey: String
    /// Changes on every reload; due-queue entries of another generation are stale.
    var generation: Int
    /// Claimed due times running (or waiting to retry), plus those being claimed to start now.
    var running: [RunActivity] = []
    /// Claimed due times waiting for the running ones (`overlap: queue`, `catchUp: all`).
    var waiting: [RunActivity] = []
    /// The workflow, kept between runs when the next one is near (see `DaemonEngine.workflowCacheHorizon`);
    /// boxed, since most automations keep none.
    var cachedWorkflow: WorkflowBox?

    init(automation: Automation, storeKey: String, generation: Int) {
        self.automation = automation
        self.storeKey = storeKey
        self.generation = generation
    }

    func remove(_ activity: RunActivity) {
        running.removeAll { $0 === activity }
        waiting.removeAll { $0 === activity }
    }
}

/// A workflow kept in memory.
final class WorkflowBox: Sendable {
    let workflow: Workflow
    init(_ workflow: Workflow) { self.workflow = workflow }
}

/// One claimed due time going through its attempts. Guarded by the engine's lock, except
/// ``claim`` and ``automation``, which do not change once its task started.
final class RunActivity: @unchecked Sendable {
    var claim: Claim
    let automation: Automation
    let schedule: ScheduledAutomation
    /// Whether the claim is in the store.
    var isConfirmed = false
    /// The task performing the attempts, once started.
    var task: Task<Void, Never>?
    /// Why it was cancelled, when it was.
    var cancelReason: String?
    /// Whether it sleeps before another attempt (`retry: backoff`).
    var isWaitingToRetry = false
    /// When its run was recorded as started, with the other runs due at the same instant.
    var begunAt: Date?

    init(claim: Claim, automation: Automation, schedule: ScheduledAutomation) {
        self.claim = claim
        self.automation = automation
        self.schedule = schedule
    }

    /// Records why it stops and cancels its task (a no-op before it starts).
    func cancel(reason: String) {
        if cancelReason == nil { cancelReason = reason }
        task?.cancel()
    }
}
