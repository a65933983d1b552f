import Clockwork
import Foundation
import IntentKit
import Logging
import WorkflowKit

/// A run started by a file event or by a caller of ``AutomationDaemon/runNow(_:inputs:trigger:workflow:started:)``
/// (a webhook): not a due time, so nothing is claimed. Guarded by the engine's lock.
final class TriggeredRun: @unchecked Sendable {
    /// The task running its attempts, once started.
    var task: Task<Automation.RunOutcome, Never>?
    /// The run id of its current attempt, once recorded as started.
    var runID: String?
    /// When its current attempt started.
    var attemptStartedAt: Date

    init(startedAt: Date) {
        attemptStartedAt = startedAt
    }
}

/// Webhooks and file triggers: the automations that run on something else than their
/// schedule, and their runs.
extension DaemonEngine {
    /// How many runs of one automation's file events run at once; the others wait in order.
    static let fileRunsAtOnce = 4
    /// How many file events of one automation wait at most; later ones are logged and dropped.
    static let fileQueueLimit = 10_000

    /// Starts watching the folders of the automations with `watch:`.
    func startTriggers(_ automations: [Automation]) {
        let watcher = FileTriggerWatcher(
            clock: clock.local,
            log: { [logger] message, level in logger.log(level: level, "\(message)") },
            onTrigger: { [weak self] trigger in self?.fileTriggered(trigger) })
        condition.withLock { fileTriggers = watcher }
        refreshTriggers(Dictionary(automations.map { ($0.key, Optional($0)) }) { first, _ in first })
        let webhooks = condition.withLock { webhookAutomations.keys.sorted() }
        if !webhooks.isEmpty {
            log(
                "\(webhooks.count) webhook\(webhooks.count == 1 ? "" : "s"): " + webhooks.map { "/hooks/\($0)" }.joined(separator: ", ")
                    + " (served by `shortcuts daemon --http` or `shortcuts serve`)")
        }
    }

    /// Takes the automations that changed, by key (`nil` for those that are gone): those
    /// that run requests and webhooks may run, and the folders to watch.
    func refreshTriggers(_ changes: [String: Automation?]) {
        let update = condition.withLock { () -> (watcher: FileTriggerWatcher, watched: [Automation])? in
            var watchesChanged = false
            for (key, changed) in changes {
                let automation = changed.flatMap { $0.isEnabled ? $0 : nil }
                let old = enabledAutomations.removeValue(forKey: key)?.automation
                if old?.watch != nil || automation?.watch != nil { watchesChanged = true }
                if let name = old?.webhook?.name.value, webhookAutomations[name] === old { webhookAutomations[name] = nil }
                guard let automation else { continue }
                enabledAutomations[key] = (automation, store.key(for: automation))
                if let name = automation.webhook?.name.value { webhookAutomations[name] = automation }
            }
            guard watchesChanged, let fileTriggers else { return nil }
            return (fileTriggers, enabledAutomations.values.map(\.automation).filter { $0.watch != nil })
        }
        update?.watcher.update(update?.watched ?? [])
    }

    /// The enabled automation with a webhook of this name.
    func automation(forWebhook name: String) -> Automation? {
        condition.withLock { webhookAutomations[name] }
    }

    /// Stops watching files; file events waiting for a run are dropped.
    func stopFileTriggers() {
        let watcher = condition.withLock { fileTriggers }
        watcher?.stop()
        let dropped = condition.withLock { () -> Int in
            defer { fileQueues = [:] }
            return fileQueues.values.reduce(0) { $0 + $1.count }
        }
        if dropped > 0 { log("stopping: \(dropped) file events waiting for a run do not run", level: .warning) }
    }

    // MARK: File events

    /// Runs the automation of a file event, or queues the event behind the runs of its
    /// automation already going (at most ``fileRunsAtOnce`` at once).
    func fileTriggered(_ trigger: FileTrigger) {
        enum Decision { case start, queued, dropped, stopping }
        let key = trigger.automation.key
        let decision = condition.withLock { () -> Decision in
            guard lifecycle == .running else { return .stopping }
            if fileRunCounts[key, default: 0] < Self.fileRunsAtOnce {
                fileRunCounts[key, default: 0] += 1
                return .start
            }
            guard fileQueues[key, default: []].count < Self.fileQueueLimit else { return .dropped }
            fileQueues[key, default: []].append(trigger)
            return .queued
        }
        switch decision {
        case .start:
            Task.detached { [self] in await performFileRuns(from: trigger) }
        case .dropped:
            log(
                "\(trigger.automation.name): file \(trigger.event.rawValue): \(trigger.file.path) does not run: "
                    + "\(Self.fileQueueLimit) file events already wait for a run", level: .warning)
        case .queued, .stopping:
            break
        }
    }

    /// Runs a file event's automation, then the events of the same automation that waited.
    private func performFileRuns(from first: FileTrigger) async {
        var next: FileTrigger? = first
        let key = first.automation.key
        while let trigger = next {
            await performFileRun(trigger)
            next = condition.withLock { () -> FileTrigger? in
                if lifecycle == .running, var queue = fileQueues[key], !queue.isEmpty {
                    let taken = queue.removeFirst()
                    fileQueues[key] = queue.isEmpty ? nil : queue
                    return taken
                }
                fileRunCounts[key, default: 1] -= 1
                if fileRunCounts[key] == 0 { fileRunCounts[key] = nil }
                return nil
            }
        }
    }

    /// Runs an automation for a file event: the file's path as its input `file` and the
    /// event's name as `event`, each when the workflow declares it.
    private func performFileRun(_ trigger: FileTrigger) async {
        let automation = trigger.automation
        let detail = "file \(trigger.event.rawValue): \(trigger.file.path)"
        let workflow: Workflow
        do {
            workflow = try automation.loadWorkflow(catalog: configuration.catalog)
        } catch {
            log("\(automation.name): \(detail) cannot run:\n\(error.rendered())", level: .error)
            return
        }
        let declared = Set(workflow.inputs.map(\.name.value))
        var inputs: [String: IntentValue] = [:]
        if declared.contains("file") { inputs["file"] = .string(trigger.file.path) }
        if declared.contains("event") { inputs["event"] = .string(trigger.event.rawValue) }
        _ = await runTriggered(
            automation, inputs: inputs, trigger: Automation.Trigger.file.recordedName, workflow: workflow, detail: detail
        ) { _, _ in }
    }

    // MARK: Runs

    /// Runs an automation now, in a task of the daemon: recorded in its history, with its
    /// secrets, logged, given the grace period when the daemon stops, then cancelled.
    ///
    /// - Returns: How it ended; cancelled, without a run, when the daemon is not running.
    func runTriggered(
        _ automation: Automation, inputs: [String: IntentValue], trigger: String, workflow: Workflow?, detail: String,
        started: @escaping @Sendable (String, Int) -> Void
    ) async -> Automation.RunOutcome {
        let run = TriggeredRun(startedAt: localNow)
        let name = automation.name
        let task = condition.withLock { () -> Task<Automation.RunOutcome, Never>? in
            guard lifecycle == .running else { return nil }
            let number = nextTriggeredRun
            nextTriggeredRun += 1
            triggeredRuns[number] = run
            let task = Task.detached { [self] () -> Automation.RunOutcome in
                let outcome = await automation.runNow(
                    inputs: inputs, trigger: trigger, workflow: workflow, catalog: configuration.catalog, history: history,
                    secrets: configuration.secrets, locale: configuration.locale,
                    show: { [self] text in log("\(name): \(text)") },
                    started: { [self] runID, attempt in
                        condition.withLock {
                            run.runID = runID
                            run.attemptStartedAt = localNow
                        }
                        log(
                            "\(name): run \(runID.prefix(8)) started (\(detail)"
                                + (automation.attempts > 1 ? ", attempt \(attempt) of \(automation.attempts)" : "") + ")")
                        started(runID, attempt)
                    },
                    recordsLater: { [historyWrites] end in historyWrites.record(.record(end)) }, clock: clock.local)
                logEnd(of: run, outcome, name: name, detail: detail)
                condition.withLock {
                    triggeredRuns[number] = nil
                    condition.broadcast()
                }
                return outcome
            }
            run.task = task
            return task
        }
        guard let task else { return Automation.RunOutcome(status: .cancelled, error: "not run: the daemon is not running") }
        return await task.value
    }

    private func logEnd(of run: TriggeredRun, _ outcome: Automation.RunOutcome, name: String, detail: String) {
        guard let runID = outcome.runIDs.last else {
            log("\(name): \(detail) cannot run:\n\(outcome.error ?? outcome.status.rawValue)", level: .error)
            return
        }
        let took = Self.format(clock.local.elapsed(since: condition.withLock { run.attemptStartedAt }))
        let id = runID.prefix(8)
        switch outcome.status {
        case .succeeded: log("\(name): run \(id) succeeded in \(took)")
        case .timedOut: log("\(name): run \(id) \(outcome.error ?? "timed out")")
        case .cancelled: log("\(name): run \(id) cancelled after \(took)")
        default: log("\(name): run \(id) failed in \(took):\n\(outcome.error ?? "")", level: .error)
        }
    }

    /// Records as cancelled the runs of file events and webhooks that did not end within the
    /// wait after being cancelled.
    func recordStuckTriggeredRuns() {
        let stuck = condition.withLock { triggeredRuns.values.compactMap(\.runID) }
        guard !stuck.isEmpty else { return }
        historyWrites.record(
            .mark(
                stuck, status: .cancelled,
                error: "cancelled: the daemon stopped; the run did not end within \(Self.format(Self.cancellationWait)) of being cancelled"))
    }
}
