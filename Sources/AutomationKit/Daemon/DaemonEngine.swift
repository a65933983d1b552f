import Foundation
import IntentKit
import Logging
import SQLiteStorage
import WorkflowKit

/// The daemon's machinery: a scheduler thread that sleeps on a condition until the earliest
/// due time (or a reload, or a stop), claims what is due in one transaction, and starts a
/// task per claimed due time.
///
/// Everything mutable is guarded by `condition`'s lock, which is never held across database
/// writes or workflow loading. The scheduler thread alone touches `folder`.
final class DaemonEngine: @unchecked Sendable {
    let configuration: AutomationDaemon.Configuration
    let logger: Logger
    let daemonID = UUID().uuidString.lowercased()

    /// A due time more than this late means the daemon stalled (suspend, clock change): the
    /// stalled period is handled like a restart, by `catchUp:`.
    static let stallThreshold: TimeInterval = 60
    /// How long cancelled runs have to record themselves before the daemon records them itself.
    static let cancellationWait: Duration = .seconds(5)
    /// How often old claims are deleted.
    static let pruneInterval: TimeInterval = 3600
    /// A workflow is kept in memory between runs when its next due time is nearer than this;
    /// the others are read from their file when they run, so that thousands of automations
    /// cost little memory.
    static let workflowCacheHorizon: TimeInterval = 600

    // Set by start(), then only read.
    private(set) var store: AutomationStore!
    private(set) var history: RunHistory!
    private(set) var endings: ClaimEndings!
    private var lock: DaemonLock?
    private var watcher: FolderWatcher?
    /// Touched by start() and then by the scheduler thread only.
    private var folder: AutomationFolder?

    let condition = NSCondition()
    // Guarded by `condition`.
    private var entries: [String: ScheduledAutomation] = [:]
    private var dueQueue = DueQueue()
    private var nextGeneration = 1
    var activities: [ObjectIdentifier: RunActivity] = [:]
    var lifecycle = Lifecycle.created
    var stopRequests = 0
    private var stopWaiter: CheckedContinuation<Void, Never>?
    private var reloadNames: Set<String> = []
    private var reloadsEverything = false
    private var isReloadPending = false
    private var nextPrune = Date.distantFuture
    private var isSchedulerRunning = false

    enum Lifecycle {
        case created, running, stopping, stopped
    }

    init(configuration: AutomationDaemon.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Logs one record; a message of several lines (a located error) stays one record.
    func log(_ message: String, level: Logger.Level = .info) {
        logger.log(level: level, "\(message)")
    }

    var scheduledCount: Int { condition.withLock { entries.count } }

    // MARK: Starting

    func start() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: configuration.workflows.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AutomationError.noFolder(configuration.workflows.relativePath)
        }
        let home = configuration.home
        do {
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        } catch {
            throw AutomationError.store(home.path, underlying: error.localizedDescription)
        }
        store = try open(home.appendingPathComponent("automations.sqlite")) { try AutomationStore(path: $0) }
        history = try open(home.appendingPathComponent("runs.sqlite")) { try RunHistory(path: $0) }
        endings = ClaimEndings(store: store) { [logger] message in logger.error("\(message)") }
        let locks = home.appendingPathComponent("daemons")
        lock = try DaemonLock(folder: locks, daemonID: daemonID)
        let started = Date()
        try write { try store.registerDaemon(id: daemonID, workflows: configuration.workflows.path, now: started) }
        recoverDeadDaemons()
        let others = DaemonLock.sweep(folder: locks, except: daemonID)
        if others.removed > 0 {
            log("removed \(others.removed) stale lock file\(others.removed == 1 ? "" : "s") of stopped daemons from \(locks.path)")
        }
        if !others.live.isEmpty {
            let pids = others.live.map { id in (try? store.pid(ofDaemon: id)).flatMap { $0 }.map { "pid \($0)" } ?? id }
            log(
                "\(others.live.count == 1 ? "another daemon" : "\(others.live.count) other daemons") (\(pids.joined(separator: ", "))) "
                    + "use \(home.appendingPathComponent("automations.sqlite").path): due times are claimed there, so no due time runs twice; "
                    + "but overlap: is decided by each daemon for its own runs, so an automation may run in two daemons at once, "
                    + "and each daemon runs @reboot automations when it starts", level: .warning)
        }
        try? store.prune(now: started)

        let loaded = AutomationFolder.load(configuration.workflows, catalog: configuration.catalog)
        folder = loaded
        for problem in loaded.problems { log(problem.rendered(), level: .error) }
        let automations = loaded.automations
        let now = Date()
        let cursors = try write {
            try store.cursors(for: automations.map { .init(key: $0.key, definition: $0.definition, isEnabled: $0.isEnabled) }, now: now)
        }
        var claims: [PendingClaim] = []
        condition.withLock {
            for automation in automations where automation.isEnabled {
                let entry = ScheduledAutomation(automation: automation, generation: takeGeneration())
                entries[automation.key] = entry
                if automation.schedule.runsAtStart {
                    claims.append(claim(started, for: entry, isCatchUp: false, isSequential: false, note: "@reboot: the daemon started"))
                    continue
                }
                let plan = CatchUpPlan(
                    policy: automation.catchUp, after: cursors[automation.key] ?? now, now: now,
                    nextDueTime: automation.nextDueTime)
                claims += catchUp(plan, for: entry)
                schedule(entry, after: plan.resume)
            }
            // A stop requested while starting stands: the scheduler then ends at once.
            if lifecycle == .created { lifecycle = .running }
            nextPrune = now.addingTimeInterval(Self.pruneInterval)
        }
        let disabled = automations.count - automations.filter(\.isEnabled).count
        log(
            "scheduling \(automations.count - disabled) automations from \(configuration.workflows.relativePath)"
                + (disabled > 0 ? " (\(disabled) disabled)" : "")
                + (loaded.problems.isEmpty ? "" : "; \(loaded.problems.count) files have errors and are not scheduled"))
        process(claims)

        if configuration.watchesFolder {
            let watcher = FolderWatcher(folder: configuration.workflows) { [weak self] names in self?.requestReload(names) }
            watcher.start()
            self.watcher = watcher
            log("watching \(configuration.workflows.relativePath) for changes (\(watcher.mechanism))")
        }
        condition.withLock { isSchedulerRunning = true }
        let thread = Thread { [self] in schedulerLoop() }
        thread.name = "automation scheduler"
        thread.start()
    }

    private func open<Store>(_ url: URL, _ opening: (String) throws -> Store) throws -> Store {
        do {
            return try opening(url.path)
        } catch let error as SQLiteStorageError {
            throw error  // names the file and the reason already
        } catch {
            throw AutomationError.store(url.path, underlying: "\(error)")
        }
    }

    private func write<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw AutomationError.store(configuration.home.appendingPathComponent("automations.sqlite").path, underlying: "\(error)")
        }
    }

    /// Settles the claims that dead daemons left queued or running. A daemon is dead when its
    /// lock file can be locked; live daemons' claims are left alone. A claim whose run ended
    /// (the daemon died before recording it) takes the run's status; the others, and their
    /// runs, are marked interrupted.
    private func recoverDeadDaemons() {
        let locks = configuration.home.appendingPathComponent("daemons")
        do {
            let pending = try store.pendingClaims(notOwnedBy: daemonID)
            let now = Date()
            for (owner, claims) in Dictionary(grouping: pending, by: \.daemonID).sorted(by: { $0.key < $1.key })
            where DaemonLock.isDead(daemonID: owner, folder: locks) {
                let daemon = (try? store.pid(ofDaemon: owner)).flatMap { $0 }.map { "the daemon with pid \($0)" } ?? "a daemon"
                var interrupted: [Claim] = []
                var settled: [ClaimEnding] = []
                for claim in claims {
                    guard claim.status == .running, let runID = claim.runID, let run = try? history.run(matching: runID).run,
                        run.status != .running, run.status != .interrupted, let id = claim.id
                    else {
                        interrupted.append(claim)
                        continue
                    }
                    let status: Claim.Status =
                        switch run.status {
                        case .succeeded: .succeeded
                        case .cancelled: .cancelled
                        default: .failed
                        }
                    settled.append(
                        ClaimEnding(
                            id: id, status: status, note: "recorded from the run history after \(daemon) stopped",
                            runID: nil, attempts: claim.attempts, startedAt: run.startedAt, endedAt: run.endedAt ?? now))
                }
                try store.finish(settled)
                let running = interrupted.filter { $0.status == .running }
                let message = "interrupted: \(daemon) stopped while it ran (killed or crashed)"
                try history.mark(running.compactMap(\.runID), as: .interrupted, error: message)
                try store.markInterrupted(running.compactMap(\.id), note: message, at: now)
                let queued = interrupted.filter { $0.status == .queued }
                try store.markInterrupted(queued.compactMap(\.id), note: "interrupted: \(daemon) stopped before it ran (killed or crashed)", at: now)
                if !interrupted.isEmpty {
                    log(
                        "\(daemon) stopped without finishing \(interrupted.count) due times: marked interrupted ("
                            + interrupted.map { "\(name(ofKey: $0.automationKey)) due \(Self.format($0.dueDate))" }.joined(separator: ", ") + ")",
                        level: .warning)
                }
                if !settled.isEmpty {
                    log("\(daemon) stopped before recording how \(settled.count) due times ended: taken from the run history")
                }
            }
        } catch {
            log("cannot check for interrupted runs: \(error)", level: .error)
        }
    }

    // MARK: Scheduling

    private func takeGeneration() -> Int {
        defer { nextGeneration += 1 }
        return nextGeneration
    }

    /// Queues an automation's first due time after a date. Call with the lock held.
    private func schedule(_ entry: ScheduledAutomation, after date: Date) {
        guard let next = entry.automation.nextDueTime(after: date) else { return }
        dueQueue.insert(.init(date: next, key: entry.automation.key, generation: entry.generation))
    }

    /// Sleeps until the earliest due time, a reload or a stop; claims and starts what is due.
    private func schedulerLoop() {
        condition.lock()
        while lifecycle == .running {
            if isReloadPending {
                let names: Set<String>? = reloadsEverything ? nil : reloadNames
                isReloadPending = false
                reloadsEverything = false
                reloadNames = []
                condition.unlock()
                reload(names)
                condition.lock()
                continue
            }
            let now = Date()
            if now >= nextPrune {
                nextPrune = now.addingTimeInterval(Self.pruneInterval)
                condition.unlock()
                try? store.prune(now: now)
                condition.lock()
                continue
            }
            let wakeUp = min(dueQueue.first?.date ?? .distantFuture, nextPrune)
            if wakeUp > now {
                _ = condition.wait(until: wakeUp)
                continue
            }
            let claims = collectDue(now: now)
            condition.unlock()
            process(claims)
            condition.lock()
        }
        isSchedulerRunning = false
        condition.broadcast()
        condition.unlock()
    }

    /// Takes every due time that has come off the queue, decides what each does and queues
    /// each automation's next due time. Call with the lock held.
    private func collectDue(now: Date) -> [PendingClaim] {
        var claims: [PendingClaim] = []
        while let first = dueQueue.first, first.date <= now {
            dueQueue.removeFirst()
            guard let entry = entries[first.key], entry.generation == first.generation else { continue }
            if first.date < now.addingTimeInterval(-Self.stallThreshold) {
                let plan = CatchUpPlan(
                    policy: entry.automation.catchUp, after: first.date.addingTimeInterval(-1), now: now,
                    nextDueTime: entry.automation.nextDueTime)
                log(
                    "\(entry.automation.name): the daemon fell \(Int(now.timeIntervalSince(first.date))) s behind (suspended, or the clock changed); "
                        + "due times since \(Self.format(first.date)) follow catchUp: \(entry.automation.catchUp.rawValue)", level: .warning)
                claims += catchUp(plan, for: entry)
                schedule(entry, after: plan.resume)
                continue
            }
            claims.append(claim(first.date, for: entry, isCatchUp: false, isSequential: false, note: nil))
            schedule(entry, after: first.date)
        }
        return claims
    }

    /// The claims a catch-up plan makes. Call with the lock held.
    private func catchUp(_ plan: CatchUpPlan, for entry: ScheduledAutomation) -> [PendingClaim] {
        var claims: [PendingClaim] = []
        if let missed = plan.missed {
            claims.append(
                PendingClaim(
                    claim: makeClaim(missed, for: entry, status: .missed, isCatchUp: false, note: plan.note), name: entry.automation.name,
                    activity: nil, replaces: false))
        }
        for (index, due) in plan.runs.enumerated() {
            claims.append(claim(due, for: entry, isCatchUp: true, isSequential: plan.runs.count > 1, note: index == 0 ? plan.note : nil))
        }
        if plan.missedCount > 0, let note = plan.note {
            log("\(entry.automation.name): \(note)")
        }
        return claims
    }

    /// A claim to make for a due time, after the automation's `overlap:`; reserves its place
    /// among the automation's runs until the claim is confirmed. Call with the lock held.
    private func claim(_ due: Date, for entry: ScheduledAutomation, isCatchUp: Bool, isSequential: Bool, note: String?) -> PendingClaim {
        let decision = OverlapDecision(
            policy: entry.automation.overlap, isSequentialCatchUp: isSequential,
            running: entry.running.count, queued: entry.waiting.count)
        switch decision {
        case .start(let replacing):
            var claim = makeClaim(due, for: entry, status: .running, isCatchUp: isCatchUp, note: note)
            claim.runID = Self.newRunID()
            claim.attempts = 1
            let activity = RunActivity(claim: claim, automation: entry.automation, schedule: entry)
            entry.running.append(activity)
            return PendingClaim(claim: claim, name: entry.automation.name, activity: activity, replaces: replacing)
        case .queue:
            var claim = makeClaim(due, for: entry, status: .queued, isCatchUp: isCatchUp, note: note)
            claim.runID = Self.newRunID()
            let activity = RunActivity(claim: claim, automation: entry.automation, schedule: entry)
            entry.waiting.append(activity)
            return PendingClaim(claim: claim, name: entry.automation.name, activity: activity, replaces: false)
        case .skip(let reason):
            return PendingClaim(
                claim: makeClaim(due, for: entry, status: .skipped, isCatchUp: isCatchUp, note: reason),
                name: entry.automation.name, activity: nil, replaces: false)
        }
    }

    private func makeClaim(_ due: Date, for entry: ScheduledAutomation, status: Claim.Status, isCatchUp: Bool, note: String?) -> Claim {
        Claim(
            id: nil, automationKey: entry.automation.key, dueTime: Int64(due.timeIntervalSince1970.rounded(.down)), status: status,
            runID: nil, daemonID: daemonID, isCatchUp: isCatchUp, attempts: 0, claimedAt: 0, startedAt: nil, endedAt: nil, note: note)
    }

    static func newRunID() -> String { UUID().uuidString.lowercased() }

    /// Inserts the claims in one transaction, then starts or queues the due times this daemon
    /// won and forgets those another daemon claimed first.
    func process(_ claims: [PendingClaim]) {
        guard !claims.isEmpty else { return }
        let results: [Claim?]
        do {
            results = try store.insert(claims.map(\.claim))
        } catch {
            log("cannot claim \(claims.count) due times, so they do not run: \(error)", level: .error)
            results = Array(repeating: nil, count: claims.count)
        }
        // The runs that start now are recorded as started together, in one transaction.
        let starting = zip(claims, results).compactMap { pending, result in
            result?.status == .running ? pending.activity : nil
        }
        var begunAt: Date?
        do {
            begunAt = try history.begin(
                starting.map { (file: $0.automation.fileName, name: $0.automation.name, id: $0.claim.runID ?? "") },
                trigger: "automation")
        } catch {
            log("cannot record the start of \(starting.count) runs: \(error)", level: .error)
        }
        var cancelled: [RunActivity] = []
        condition.lock()
        for activity in starting { activity.begunAt = begunAt }
        var touched: [ObjectIdentifier: ScheduledAutomation] = [:]
        for (pending, result) in zip(claims, results) {
            guard let activity = pending.activity else {
                if let result {
                    log(
                        "\(pending.name): due \(Self.format(result.dueDate)) \(result.status.rawValue)"
                            + (result.note.map { ": \($0)" } ?? ""))
                }
                continue
            }
            let entry = activity.schedule
            touched[ObjectIdentifier(entry)] = entry
            guard let result else {
                entry.remove(activity)
                continue
            }
            activity.claim = result
            activity.isConfirmed = true
            if pending.replaces {
                let reason = "replaced by the run due at \(Self.format(result.dueDate)) (overlap: replace)"
                for other in entry.running where other !== activity { other.cancel(reason: reason) }
                for other in entry.waiting where other !== activity {
                    other.cancel(reason: reason)
                    if other.isConfirmed { cancelled.append(other) }
                }
                entry.waiting.removeAll { $0 !== activity }
            }
            if activity.cancelReason != nil || lifecycle != .running {
                entry.remove(activity)
                activity.cancel(reason: "the daemon stopped before it started")
                cancelled.append(activity)
            } else if result.status == .running {
                launch(activity)
            } else {
                log("\(activity.automation.name): due \(Self.format(result.dueDate)) queued behind the running one")
            }
        }
        for entry in touched.values { pump(entry) }
        condition.unlock()
        recordCancelled(cancelled)
    }

    /// Records claims that were cancelled before they started (and their runs, when recorded as started).
    func recordCancelled(_ activities: [RunActivity]) {
        let now = Date()
        for activity in activities where activity.begunAt != nil {
            _ = try? history.mark([activity.claim.runID ?? ""], as: .cancelled, error: activity.cancelReason ?? "cancelled")
        }
        for activity in activities {
            guard let id = activity.claim.id else { continue }
            endings.record(
                ClaimEnding(
                    id: id, status: .cancelled, note: activity.cancelReason, runID: nil, attempts: 0,
                    startedAt: nil, endedAt: now))
        }
    }

    /// Starts the next waiting due time of an automation when none of its runs is going.
    /// Call with the lock held.
    func pump(_ entry: ScheduledAutomation) {
        guard lifecycle == .running, entry.running.isEmpty, let next = entry.waiting.first, next.isConfirmed else { return }
        entry.waiting.removeFirst()
        entry.running.append(next)
        launch(next)
    }

    /// Starts the task of a claimed due time. Call with the lock held.
    private func launch(_ activity: RunActivity) {
        activities[ObjectIdentifier(activity)] = activity
        activity.task = Task.detached { [self] in
            await perform(activity)
        }
    }

    // MARK: Reloading

    func requestReload(_ names: Set<String>?) {
        condition.withLock {
            if let names { reloadNames.formUnion(names) } else { reloadsEverything = true }
            isReloadPending = true
            condition.broadcast()
        }
    }

    /// Reads the changed files again and reschedules what changed: an edited automation starts
    /// from now (no catch-up), a deleted or disabled one stops (its runs go on to their end).
    private func reload(_ names: Set<String>?) {
        guard var folder else { return }
        let changes = folder.reload(names: names)
        self.folder = folder
        for problem in changes.problems { log(problem.rendered(), level: .error) }
        guard !changes.keys.isEmpty else { return }
        let now = Date()
        let current = folder.automations.filter { changes.keys.contains($0.key) }
        let cursors =
            (try? store.cursors(for: current.map { .init(key: $0.key, definition: $0.definition, isEnabled: $0.isEnabled) }, now: now)) ?? [:]
        var lines: [String] = []
        condition.withLock {
            for key in changes.keys.sorted() {
                if let automation = current.first(where: { $0.key == key }), automation.isEnabled {
                    let entry = entries[key] ?? ScheduledAutomation(automation: automation, generation: 0)
                    lines.append("\(entries[key] == nil ? "scheduling" : "rescheduling") \(automation.name) (\(automation.file.lastPathComponent))")
                    entry.automation = automation
                    entry.cachedWorkflow = nil
                    entry.generation = takeGeneration()
                    entries[key] = entry
                    schedule(entry, after: max(now, cursors[key] ?? now))
                } else if let entry = entries.removeValue(forKey: key) {
                    entry.generation = takeGeneration()
                    lines.append(
                        "no longer scheduling \(entry.automation.name) (\(entry.automation.file.lastPathComponent)): "
                            + (current.contains { $0.key == key } ? "disabled" : "deleted or invalid"))
                }
            }
        }
        for line in lines { log(line) }
    }

    // MARK: Stopping

    func requestStop() {
        let (waiter, cancelNow) = condition.withLock { () -> (CheckedContinuation<Void, Never>?, [RunActivity]) in
            stopRequests += 1
            if lifecycle == .running || lifecycle == .created { lifecycle = .stopping }
            let waiter = stopWaiter
            stopWaiter = nil
            condition.broadcast()
            let values = Array(activities.values)
            if stopRequests > 1 {
                for activity in values { activity.cancel(reason: "cancelled: the daemon was asked to stop again") }
                return (waiter, values)
            }
            for activity in values where activity.isWaitingToRetry {
                activity.cancel(reason: "cancelled: the daemon stopped before the next attempt")
            }
            return (waiter, [])
        }
        waiter?.resume()
        if !cancelNow.isEmpty { log("cancelling \(cancelNow.count) runs at once", level: .warning) }
    }

    /// Requests a stop unless one was requested already (a second request would cancel runs at once).
    func requestStopIfNeeded() {
        if condition.withLock({ stopRequests == 0 }) { requestStop() }
    }

    func stopRequested() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = condition.withLock { () -> Bool in
                if stopRequests > 0 { return true }
                stopWaiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Stops scheduling, cancels waiting due times, gives running ones the grace period, then
    /// cancels them and waits for them to record themselves.
    func shutDown() async {
        let isFirst = condition.withLock { () -> Bool in
            guard lifecycle == .stopping, !isShuttingDown else { return false }
            isShuttingDown = true
            return true
        }
        guard isFirst else {
            await waitUntil(.distantFuture) { self.lifecycle == .stopped }
            return
        }
        guard let endings, let store else {
            // Never started.
            condition.withLock { lifecycle = .stopped }
            return
        }
        watcher?.stop()
        await waitUntil(.distantFuture) { !self.isSchedulerRunning }
        let (waiting, runningCount) = condition.withLock { () -> ([RunActivity], Int) in
            var waiting: [RunActivity] = []
            for entry in entries.values {
                waiting += entry.waiting.filter(\.isConfirmed)
                entry.waiting.removeAll()
            }
            for activity in waiting { activity.cancel(reason: "cancelled: the daemon stopped before it started") }
            return (waiting, activities.count)
        }
        recordCancelled(waiting)
        let grace = configuration.grace
        if runningCount > 0 {
            log("stopping: waiting up to \(Self.format(grace)) for \(runningCount) running workflows")
            await waitUntil(Date().addingTimeInterval(Self.seconds(grace))) { self.activities.isEmpty || self.stopRequests > 1 }
        }
        let late = condition.withLock { () -> [RunActivity] in
            let late = Array(activities.values)
            for activity in late { activity.cancel(reason: "cancelled: the daemon stopped and its grace period of \(Self.format(grace)) was over") }
            return late
        }
        if !late.isEmpty {
            log("stopping: cancelling \(late.count) workflows still running", level: .warning)
            await waitUntil(Date().addingTimeInterval(Self.seconds(Self.cancellationWait))) { self.activities.isEmpty }
        }
        let stuck = condition.withLock { Array(activities.values) }
        if !stuck.isEmpty {
            let note = "cancelled: the daemon stopped; the run did not end within \(Self.format(Self.cancellationWait)) of being cancelled"
            _ = try? history.mark(stuck.compactMap(\.claim.runID), as: .cancelled, error: note)
            for activity in stuck { activity.cancelReason = note }
            recordCancelled(stuck)
        }
        endings.flush()
        try? store.daemonStopped(id: daemonID, now: Date())
        lock?.release()
        condition.withLock {
            lifecycle = .stopped
            condition.broadcast()
        }
        log("stopped")
    }

    private var isShuttingDown = false

    /// Waits, checking every 20 ms, until a condition holds (read with the lock held) or a deadline passes.
    private func waitUntil(_ deadline: Date, _ predicate: @escaping () -> Bool) async {
        while Date() < deadline {
            if condition.withLock(predicate) { return }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    // MARK: Text

    func name(ofKey key: String) -> String {
        condition.withLock { entries[key]?.automation.name } ?? URL(fileURLWithPath: key).lastPathComponent
    }

    static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func format(_ duration: Duration) -> String {
        DurationSyntax.describe(duration)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// A claim about to be inserted, with the run it reserves (to start or to queue), if any.
struct PendingClaim {
    var claim: Claim
    /// The automation's name, for the log.
    var name: String
    var activity: RunActivity?
    /// Whether, once claimed, it cancels the automation's other runs (`overlap: replace`).
    var replaces: Bool
}
