import Clockwork
import Foundation
import IntentKit
import Logging
import Metrics
import SQLiteStorage
import StateStorage
import WorkflowKit

/// The daemon's machinery: a scheduler thread that sleeps on a condition until the earliest
/// due time (or a reload, or a stop), claims what is due in one transaction, and starts a
/// task per claimed due time; and a heartbeat thread that renews the daemon's lease, settles
/// the claims of daemons whose lease expired, and polls for cancellations, promotions and run
/// requests (see `DaemonEngine+Lease.swift`).
///
/// ``start(_:logger:daemonID:metrics:)`` opens the stores and returns a running engine that owns them.
/// Everything mutable is guarded by `condition`'s lock, which is never held across database
/// writes or workflow loading. The scheduler thread alone touches `folder`.
final class DaemonEngine: @unchecked Sendable {
    let configuration: AutomationDaemon.Configuration
    let logger: Logger
    let daemonID: String
    /// The current time by the database's clock: the one due times are decided by; its
    /// `local` clock is the one the daemon waits by.
    let clock: DaemonClock
    /// Where the daemon's metrics go (``DaemonMetric``), and its runs' (``WorkflowMetric``):
    /// the factory in force when the daemon was created.
    let metrics: DaemonMetrics

    /// How long cancelled runs have to record themselves before the daemon records them itself.
    static let cancellationWait: Duration = .seconds(5)
    /// How often old claims are deleted.
    static let pruneInterval: TimeInterval = 3600
    /// A workflow is kept in memory between runs when its next due time is nearer than this;
    /// the others are read from their file when they run, so that thousands of automations
    /// cost little memory.
    static let workflowCacheHorizon: TimeInterval = 600
    /// How long a stopping daemon keeps trying to record what it has not recorded yet while
    /// the database cannot be reached.
    static let flushWait: TimeInterval = 10

    /// The claims, leases and cursors, shared with other daemons or the machine's own.
    let store: AutomationStore
    /// Where runs are recorded.
    let history: RunHistory
    /// How due times ended, written in batches and again while the database is away.
    let endings: RetryingWriter<ClaimEnding>
    /// The run history's records, written in batches and again while the database is away.
    let historyWrites: RetryingWriter<HistoryWrite>
    /// How run requests ended, written in batches and again while the database is away.
    let requestCompletions: RetryingWriter<RunRequestCompletion>
    /// The lock file that tells the daemons of this machine this one lives (SQLite only).
    private let lock: DaemonLock?
    // Set while starting, then touched by stop only.
    private var watcher: FolderWatcher?
    /// Touched by start() and then by the scheduler thread only.
    private var folder: AutomationFolder?

    let condition = NSCondition()
    /// Held while the lease is renewed or registered again, so that the heartbeat and the
    /// scheduler do not both register a new epoch.
    let leaseLock = NSRecursiveLock()
    // Guarded by `condition`.
    var entries: [String: ScheduledAutomation] = [:]
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
    /// The lease the daemon claims under; `nil` while it registers again after losing it.
    var lease: Lease?
    /// Since when (local clock) the daemon holds its lease without a failed renewal.
    var leaseHeldSince: Date?
    /// The live daemons, refreshed at each heartbeat.
    var ranking = RendezvousRanking(daemons: [])
    /// Due times not claimed because the database could not be reached.
    private var backlog = ClaimBacklog()
    /// Whether the backlog's outage was logged.
    private var isOutageLogged = false
    /// Run requests being run, by id.
    var requestTasks: [Int64: Task<Void, Never>] = [:]
    var isHeartbeatRunning = false
    /// Set once the daemon recorded its stop: the heartbeat ends.
    var isHeartbeatStopping = false
    /// The enabled automations of the folder, whatever their triggers, with their store keys,
    /// by key: those run requests, webhooks and file events may run.
    var enabledAutomations: [String: (automation: Automation, storeKey: String)] = [:]
    /// The enabled automations with a `webhook:`, by webhook name.
    var webhookAutomations: [String: Automation] = [:]
    /// Runs started by a file event or a caller (a webhook), by number.
    var triggeredRuns: [Int: TriggeredRun] = [:]
    var nextTriggeredRun = 1
    /// File triggers waiting for runs of their automation to end, by automation key.
    var fileQueues: [String: [FileTrigger]] = [:]
    /// How many file triggers of each automation are being run, by automation key.
    var fileRunCounts: [String: Int] = [:]
    /// Watches the folders of automations with `watch:`; set by start().
    var fileTriggers: FileTriggerWatcher?

    enum Lifecycle {
        case created, running, stopping, stopped
    }

    /// Opens the stores, registers the daemon, loads the folder, applies catch-up and starts
    /// scheduling: the engine returned runs, and owns its stores until it has stopped.
    ///
    /// - Parameters:
    ///   - daemonID: The identifier its claims are recorded under.
    ///   - metrics: Where its metrics go, and its runs'.
    /// - Throws: ``AutomationError`` when the folder is missing or the state cannot be opened.
    static func start(
        _ configuration: AutomationDaemon.Configuration, logger: Logger, daemonID: String, metrics: DaemonMetrics
    ) throws -> DaemonEngine {
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
        let stores: DaemonStores
        if let given = configuration.stores {
            stores = given
        } else {
            let clock = configuration.clock
            let store = try open(home.appendingPathComponent("automations.sqlite")) { try AutomationStore(path: $0, clock: clock) }
            // The history counts the runs it records as ended with the daemon's factory.
            let history = try withMetricsFactory(metrics.factory) {
                try open(home.appendingPathComponent("runs.sqlite")) { try RunHistory(path: $0, clock: clock) }
            }
            stores = DaemonStores(automations: store, history: history)
        }
        // One machine: a dead daemon is found at once by its free lock, without waiting for its
        // lease to expire.
        let lock = stores.automations.isShared ? nil : try DaemonLock(folder: home.appendingPathComponent("daemons"), daemonID: daemonID)
        let engine = DaemonEngine(configuration: configuration, logger: logger, daemonID: daemonID, stores: stores, lock: lock, metrics: metrics)
        do {
            try engine.begin()
        } catch {
            lock?.release()
            throw error
        }
        return engine
    }

    private init(
        configuration: AutomationDaemon.Configuration, logger: Logger, daemonID: String, stores: DaemonStores, lock: DaemonLock?,
        metrics: DaemonMetrics
    ) {
        self.configuration = configuration
        self.logger = logger
        self.daemonID = daemonID
        self.metrics = metrics
        self.lock = lock
        clock = DaemonClock(local: configuration.clock)
        store = stores.automations
        history = stores.history
        // The writers write through the engine, which exists once this initializer ends.
        let owner = EngineReference()
        let report: @Sendable (String) -> Void = { [logger] message in logger.error("\(message)") }
        let local = configuration.clock
        endings = RetryingWriter(label: "how due times ended", clock: local, log: report) { batch in try owner.engine?.finish(batch) }
        historyWrites = RetryingWriter(label: "run history records", clock: local, log: report) { batch in try owner.engine?.writeHistory(batch) }
        requestCompletions = RetryingWriter(label: "how run requests ended", clock: local, log: report) { batch in
            try owner.engine?.complete(batch)
        }
        owner.engine = self
    }

    /// The engine, for what is made before it: set when its initializer ends.
    private final class EngineReference: @unchecked Sendable {
        weak var engine: DaemonEngine?
    }

    /// The machine's time now, by the daemon's clock.
    var localNow: Date { clock.local.now() }

    /// Logs one record; a message of several lines (a located error) stays one record.
    func log(_ message: String, level: Logger.Level = .info) {
        logger.log(level: level, "\(message)")
    }

    var scheduledCount: Int { condition.withLock { entries.count } }

    /// Records how many runs are going (``DaemonMetric/runningRuns``). Call with the lock held.
    func recordRunning() {
        metrics.recordRunning(activities.count + requestTasks.count)
    }

    /// The lease, read under the lock.
    var currentLease: Lease? { condition.withLock { lease } }

    // MARK: Starting

    /// Registers, loads the folder, applies catch-up and starts the scheduler and the heartbeat.
    private func begin() throws {
        let locks = configuration.home.appendingPathComponent("daemons")
        let started = localNow
        let granted = try write { try register() }
        condition.withLock {
            lease = granted
            leaseHeldSince = localNow
        }
        refreshDaemons()
        if !store.isShared {
            recoverDeadDaemons()
            let others = DaemonLock.sweep(folder: locks, except: daemonID)
            if others.removed > 0 {
                log("removed \(others.removed) stale lock file\(others.removed == 1 ? "" : "s") of stopped daemons from \(locks.path)")
            }
            if !others.live.isEmpty {
                let daemons = (try? store.daemons()) ?? []
                let pids = others.live.map { id in daemons.first { $0.id == id }.map { "pid \($0.pid)" } ?? id }
                log(
                    "\(others.live.count == 1 ? "another daemon" : "\(others.live.count) other daemons") (\(pids.joined(separator: ", "))) "
                        + "use \(store.location): due times are claimed there, so no due time runs twice, "
                        + "and overlap: holds across the daemons; but each daemon runs @reboot automations when it starts",
                    level: .warning)
            }
        } else {
            let live = ranking.daemons.filter { $0 != daemonID }
            log("joined \(live.count) live daemon\(live.count == 1 ? "" : "s") on \(store.location) (lease epoch \(granted.epoch))")
        }
        try? store.prune(now: clock.now())

        let loaded = AutomationFolder.load(configuration.workflows, catalog: configuration.catalog)
        folder = loaded
        for problem in loaded.problems { log(problem.rendered(), level: .error) }
        // Automations without a schedule run on their other triggers: webhooks and file events.
        let automations = loaded.automations.filter(\.isScheduled)
        let starts = try write { try self.cursors(for: automations, now: clock.now()) }
        let claims = condition.withLock { () -> [PendingClaim] in
            var claims: [PendingClaim] = []
            for automation in automations where automation.isEnabled {
                let entry = ScheduledAutomation(automation: automation, storeKey: store.key(for: automation), generation: takeGeneration())
                entries[automation.key] = entry
                if automation.schedule?.runsAtStart == true {
                    claims.append(request(started, for: entry, isCatchUp: false, isSequential: false, note: "@reboot: the daemon started"))
                    continue
                }
                claims += resume(entry, cursor: starts[entry.storeKey], now: clock.now())
            }
            // A stop requested while starting stands: the scheduler then ends at once.
            if lifecycle == .created { lifecycle = .running }
            metrics.recordScheduled(entries.count)
            nextPrune = localNow.addingTimeInterval(Self.pruneInterval)
            return claims
        }
        log(Self.summary(of: loaded.automations, in: configuration.workflows.relativePath, problems: loaded.problems.count))
        process(claims)
        startTriggers(loaded.automations)

        if configuration.watchesFolder {
            let watcher = FolderWatcher(folder: configuration.workflows, clock: clock.local) { [weak self] names in self?.requestReload(names) }
            watcher.start()
            self.watcher = watcher
            log("watching \(configuration.workflows.relativePath) for changes (\(watcher.mechanism))")
        }
        condition.withLock {
            isSchedulerRunning = true
            isHeartbeatRunning = true
        }
        let thread = Thread { [self] in schedulerLoop() }
        thread.name = "automation scheduler"
        thread.start()
        let heartbeat = Thread { [self] in heartbeatLoop() }
        heartbeat.name = "automation heartbeat"
        heartbeat.start()
    }

    private static func open<Store>(_ url: URL, _ opening: (String) throws -> Store) throws -> Store {
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
            throw AutomationError.store(store.location, underlying: "\(error)")
        }
    }

    /// Registers the daemon, with a new lease epoch, and sets the clock by the database's.
    func register() throws -> Lease {
        let sent = localNow
        let granted = try store.register(
            DaemonRegistration(
                id: daemonID, pid: Int(getpid()), host: ProcessInfo.processInfo.hostName, workflows: configuration.workflows.path,
                leaseDuration: configuration.lease))
        if store.isShared { clock.measure(databaseNow: granted.databaseNow, sent: sent, received: localNow) }
        return granted
    }

    /// Records the automations being scheduled; returns when each one's due times became the
    /// daemon's business, by store key.
    func cursors(for automations: [Automation], now: Date) throws -> [String: Date] {
        try store.cursors(
            for: automations.map { .init(key: store.key(for: $0), definition: $0.definition, isEnabled: $0.isEnabled) }, now: now)
    }

    /// Settles the claims that dead daemons of this machine left queued or running, found by
    /// their free lock files (SQLite), without waiting for their leases to expire; live
    /// daemons' claims are left alone.
    private func recoverDeadDaemons() {
        let locks = configuration.home.appendingPathComponent("daemons")
        do {
            let pending = try store.pendingClaims(notOwnedBy: daemonID)
            let daemons = try store.daemons()
            for (owner, claims) in Dictionary(grouping: pending, by: \.daemonID).sorted(by: { $0.key < $1.key })
            where DaemonLock.isDead(daemonID: owner, folder: locks) {
                let name = daemons.first { $0.id == owner }.map(describe) ?? "a daemon"
                settle(claims, of: name)
            }
        } catch {
            log("cannot check for interrupted runs: \(error)", level: .error)
        }
    }

    // MARK: Scheduling

    func takeGeneration() -> Int {
        defer { nextGeneration += 1 }
        return nextGeneration
    }

    /// Queues an automation's first due time after a date. Call with the lock held.
    private func schedule(_ entry: ScheduledAutomation, after date: Date) {
        guard let next = entry.automation.nextDueTime(after: date) else { return }
        dueQueue.insert(.init(date: next, key: entry.automation.key, generation: entry.generation))
    }

    /// Plans an automation's catch-up from its cursor and queues its next due time: what a
    /// start, and a registration after a lost lease, do. Call with the lock held.
    func resume(_ entry: ScheduledAutomation, cursor: Date?, now: Date) -> [PendingClaim] {
        let plan = CatchUpPlan(policy: entry.automation.catchUp, after: cursor ?? now, now: now, nextDueTime: entry.automation.nextDueTime)
        schedule(entry, after: plan.resume)
        return catchUp(plan, for: entry, from: cursor ?? now)
    }

    /// Wakes the scheduler to retry its backlog at once (the database answered again).
    func retryBacklogNow() {
        condition.withLock {
            guard !backlog.isEmpty else { return }
            backlog.retryNow()
            condition.broadcast()
        }
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
            let now = clock.now()
            if localNow >= nextPrune {
                nextPrune = localNow.addingTimeInterval(Self.pruneInterval)
                condition.unlock()
                try? store.prune(now: now)
                condition.lock()
                continue
            }
            if let retry = backlog.retryAt, retry <= now {
                let claims = collectBacklog(now: now)
                condition.unlock()
                process(claims)
                condition.lock()
                continue
            }
            let wakeUp = min(dueQueue.first?.date ?? .distantFuture, backlog.retryAt ?? .distantFuture)
            if wakeUp > now {
                _ = clock.local.wait(on: condition, until: min(clock.localDate(for: wakeUp), nextPrune))
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
    /// each automation's next due time. A due time that another live daemon ranks first for
    /// goes back in the queue until this daemon's turn. Call with the lock held.
    private func collectDue(now: Date) -> [PendingClaim] {
        var claims: [PendingClaim] = []
        while let first = dueQueue.first, first.date <= now {
            dueQueue.removeFirst()
            guard let entry = entries[first.key], entry.generation == first.generation else { continue }
            let decision = DueDecision(
                due: first.due, isDelayed: first.isDelayed, now: now,
                rankingDelay: first.isDelayed ? 0 : ranking.delay(for: entry.storeKey, dueTime: Self.dueTime(first.due), daemon: daemonID),
                databaseIsAway: backlog.retryAt != nil)
            // The next due time is queued once, when this one first comes off the queue.
            if decision != .fellBehind, !first.isDelayed { schedule(entry, after: first.due) }
            switch decision {
            case .fellBehind:
                let cursor = first.due.addingTimeInterval(-1)
                let plan = CatchUpPlan(policy: entry.automation.catchUp, after: cursor, now: now, nextDueTime: entry.automation.nextDueTime)
                log(
                    "\(entry.automation.name): the daemon fell \(Int(now.timeIntervalSince(first.due))) s behind (suspended, or the clock changed); "
                        + "due times since \(Self.format(first.due)) follow catchUp: \(entry.automation.catchUp.rawValue)", level: .warning)
                claims += catchUp(plan, for: entry, from: cursor)
                schedule(entry, after: plan.resume)
            case .waitForTurn(let turn):
                dueQueue.insert(.init(date: turn, key: first.key, generation: first.generation, due: first.due, isDelayed: true))
            case .backlog:
                backlog.add(key: entry.automation.key, dueTime: first.due)
            case .claim:
                claims.append(request(first.due, for: entry, isCatchUp: false, isSequential: false, note: nil))
            }
        }
        return claims
    }

    /// The claims of the backlog's automations, each planned by its `catchUp:` from its
    /// earliest unclaimed due time, plus its late due times (younger than a catch-up's
    /// lateness) claimed as usual. Call with the lock held.
    private func collectBacklog(now: Date) -> [PendingClaim] {
        var claims: [PendingClaim] = []
        for (key, item) in backlog.take().sorted(by: { $0.key < $1.key }) {
            guard let entry = entries[key] else { continue }
            let cursor = item.earliest.addingTimeInterval(-1)
            let plan = CatchUpPlan(policy: entry.automation.catchUp, after: cursor, now: now, nextDueTime: entry.automation.nextDueTime)
            claims += catchUp(plan, for: entry, from: cursor)
            var late = plan.resume
            while let due = entry.automation.nextDueTime(after: late), due <= item.latest {
                claims.append(request(due, for: entry, isCatchUp: false, isSequential: false, note: nil))
                late = due
            }
        }
        return claims
    }

    /// The claims a catch-up plan makes; `cursor` is the instant after which the plan's due
    /// times lie, kept should they have to wait for the database. Call with the lock held.
    private func catchUp(_ plan: CatchUpPlan, for entry: ScheduledAutomation, from cursor: Date) -> [PendingClaim] {
        var claims: [PendingClaim] = []
        let earliest = entry.automation.nextDueTime(after: cursor) ?? cursor
        if let missed = plan.missed {
            var claim = request(missed, for: entry, isCatchUp: false, isSequential: false, note: plan.note)
            claim.request.isMissed = true
            claim.earliest = earliest
            claims.append(claim)
        }
        for (index, due) in plan.runs.enumerated() {
            var claim = request(due, for: entry, isCatchUp: true, isSequential: plan.runs.count > 1, note: index == 0 ? plan.note : nil)
            claim.earliest = earliest
            claims.append(claim)
        }
        if plan.missedCount > 0, let note = plan.note {
            log("\(entry.automation.name): \(note)")
        }
        return claims
    }

    /// A due time to claim; the store decides, after the automation's `overlap:` over every
    /// daemon's runs, whether it starts, waits or is skipped.
    func request(_ due: Date, for entry: ScheduledAutomation, isCatchUp: Bool, isSequential: Bool, note: String?) -> PendingClaim {
        PendingClaim(
            request: ClaimRequest(
                automationKey: entry.storeKey, dueTime: Self.dueTime(due), overlap: entry.automation.overlap,
                isSequentialCatchUp: isSequential, isCatchUp: isCatchUp, runID: Self.newRunID(), note: note),
            entry: entry, earliest: due)
    }

    /// The line the daemon starts with: what runs on a schedule, and what runs only on its
    /// other triggers, such as `scheduling 2 automations from Workflows (and 1 on file events; 1 disabled)`.
    static func summary(of automations: [Automation], in folder: String, problems: Int) -> String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        let enabled = automations.filter(\.isEnabled)
        let unscheduled = enabled.filter { !$0.isScheduled }
        var others: [String] = []
        let watching = unscheduled.filter { $0.watch != nil }.count
        let hooked = unscheduled.filter { $0.watch == nil && $0.webhook != nil }.count
        if watching > 0 { others.append("\(watching) on file events") }
        if hooked > 0 { others.append("\(hooked) on \(hooked == 1 ? "a webhook" : "webhooks")") }
        var notes = others.isEmpty ? [] : ["and " + others.joined(separator: ", ")]
        if enabled.count < automations.count { notes.append("\(automations.count - enabled.count) disabled") }
        let errors = problems == 1 ? "1 file has errors and is not scheduled" : "\(problems) files have errors and are not scheduled"
        return "scheduling \(count(enabled.count - unscheduled.count, "automation")) from \(folder)"
            + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))") + (problems == 0 ? "" : "; " + errors)
    }

    static func dueTime(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    static func newRunID() -> String { UUID().uuidString.lowercased() }

    /// Claims due times in one transaction, then starts or queues those this daemon won and
    /// forgets those another daemon claimed first. When the database cannot be reached the
    /// due times go to the backlog, tried again with backoff.
    func process(_ claims: [PendingClaim], isRetry: Bool = false) {
        guard !claims.isEmpty else { return }
        guard let lease = currentLease else {
            // Registering again after a lost lease: catch-up from the cursors covers them.
            return
        }
        let results: [ClaimResult]
        do {
            results = try claimRetryingUncertainCommits(claims.map(\.request), lease: lease)
        } catch let error as LeaseLost {
            // The lease expired without another daemon settling it (the database was away
            // longer than the lease): renewed, the daemon claims again; lost, it registers again
            // and catch-up covers these due times.
            guard !isRetry, renew(), currentLease?.epoch == lease.epoch else {
                log("cannot claim \(claims.count) due times: \(error)", level: .warning)
                return
            }
            process(claims, isRetry: true)
            return
        } catch  where RetryBackoff.isTransient(error) {
            let logs = condition.withLock { () -> Bool in
                for claim in claims { backlog.add(key: claim.entry.automation.key, dueTime: claim.earliest) }
                backlog.failed(now: clock.now())
                condition.broadcast()
                defer { isOutageLogged = true }
                return !isOutageLogged
            }
            if logs {
                log(
                    "cannot claim \(claims.count) due times for now, trying again until the database answers; "
                        + "then catchUp: decides what runs of them: \(error)", level: .error)
            }
            return
        } catch {
            log("cannot claim \(claims.count) due times, so they do not run: \(error)", level: .error)
            return
        }
        let recovered = condition.withLock { () -> Bool in
            backlog.succeeded()
            defer { isOutageLogged = false }
            return isOutageLogged
        }
        if recovered { log("the database answers again: claiming due times") }
        accept(zip(claims, results).map { ($0, $1) })
    }

    /// Claims, trying again at once a few times when the commit's outcome is unknown: a claim
    /// of this daemon's lease found in place is adopted, so a second try cannot claim twice.
    private func claimRetryingUncertainCommits(_ requests: [ClaimRequest], lease: Lease) throws -> [ClaimResult] {
        var tries = 0
        while true {
            do {
                return try store.claim(requests, lease: lease)
            } catch let error as StateDatabaseError where error.isCommitUncertain && tries < 3 {
                tries += 1
                clock.local.pause(for: .seconds(RetryBackoff.shortest * Double(tries)))
            }
        }
    }

    /// Starts or queues the due times this daemon claimed, records the start of those that
    /// start, and cancels its own runs that a claim replaced.
    private func accept(_ decided: [(PendingClaim, ClaimResult)]) {
        var claimed: [(entry: ScheduledAutomation, claim: Claim, replaced: [Claim])] = []
        for (pending, result) in decided {
            guard case .claimed(let claim, let replaced) = result else {
                metrics.recordClaims(.lost)
                continue
            }
            if let outcome = DaemonMetric.ClaimOutcome(claimed: claim.status) { metrics.recordClaims(outcome) }
            claimed.append((pending.entry, claim, replaced))
        }
        // The runs that start now are recorded as started together, in one transaction.
        let starting = claimed.filter { $0.claim.status == .running }
        var begunAt: Date?
        // Runs another daemon settled after this one's lease expired (paused, cut off): not ours.
        var settledElsewhere: Set<String> = []
        if !starting.isEmpty {
            do {
                let begun = try history.begin(
                    starting.map { (file: $0.entry.automation.fileName, name: $0.entry.automation.name, id: $0.claim.runID ?? "") },
                    trigger: "automation")
                begunAt = begun.startedAt
                settledElsewhere = begun.alreadyRecorded
            } catch {
                log("cannot record the start of \(starting.count) runs: \(error)", level: .error)
            }
        }
        var cancelled: [RunActivity] = []
        var lines: [String] = []
        var warnings: [String] = []
        condition.lock()
        for (entry, claim, replaced) in claimed {
            let name = entry.automation.name
            if !replaced.isEmpty {
                let reason = "replaced by the run due at \(Self.format(claim.dueDate)) (overlap: replace)"
                let ids = Set(replaced.compactMap(\.id))
                for other in entry.running where other.claim.id.map(ids.contains) == true { other.cancel(reason: reason) }
                // Queued ones were cancelled by the store.
                entry.waiting.removeAll { $0.claim.id.map(ids.contains) == true }
            }
            if claim.status == .running, let runID = claim.runID, settledElsewhere.contains(runID) {
                warnings.append(
                    "\(name): due \(Self.format(claim.dueDate)) is no longer this daemon's to run: "
                        + "another daemon settled its run \(runID.prefix(8)) after this daemon's lease expired")
                continue
            }
            switch claim.status {
            case .running, .queued:
                let activity = RunActivity(claim: claim, automation: entry.automation, schedule: entry)
                activity.isConfirmed = true
                if claim.status == .running { activity.begunAt = begunAt }
                if lifecycle != .running {
                    activity.cancel(reason: "the daemon stopped before it started")
                    cancelled.append(activity)
                } else if claim.status == .running {
                    entry.running.append(activity)
                    launch(activity)
                } else {
                    entry.waiting.append(activity)
                    lines.append("\(name): due \(Self.format(claim.dueDate)) queued behind the running one")
                }
            default:
                lines.append("\(name): due \(Self.format(claim.dueDate)) \(claim.status.rawValue)" + (claim.note.map { ": \($0)" } ?? ""))
            }
        }
        condition.unlock()
        for line in lines { log(line) }
        for warning in warnings { log(warning, level: .warning) }
        recordCancelled(cancelled)
    }

    /// Records claims that were cancelled before they started (and their runs, when recorded as started).
    func recordCancelled(_ activities: [RunActivity]) {
        let now = localNow
        let begun = activities.filter { $0.begunAt != nil }
        if !begun.isEmpty {
            for activity in begun {
                historyWrites.record(.mark([activity.claim.runID ?? ""], status: .cancelled, error: activity.cancelReason ?? "cancelled"))
            }
        }
        endings.record(
            activities.compactMap { activity in
                activity.claim.id.map {
                    ClaimEnding(id: $0, status: .cancelled, note: activity.cancelReason, runID: nil, attempts: 0, startedAt: nil, endedAt: now)
                }
            })
    }

    /// Starts the task of a claimed due time. Call with the lock held.
    func launch(_ activity: RunActivity) {
        activities[ObjectIdentifier(activity)] = activity
        recordRunning()
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
        if names == nil { condition.withLock { fileTriggers }?.recheck() }
        guard !changes.keys.isEmpty else { return }
        let now = clock.now()
        let current = folder.automations.filter { changes.keys.contains($0.key) }
        refreshTriggers(Dictionary(uniqueKeysWithValues: changes.keys.map { key in (key, current.first { $0.key == key }) }))
        let cursors = (try? self.cursors(for: current.filter(\.isScheduled), now: now)) ?? [:]
        var lines: [String] = []
        condition.withLock {
            for key in changes.keys.sorted() {
                if let automation = current.first(where: { $0.key == key }), automation.isEnabled, automation.isScheduled {
                    let entry = entries[key] ?? ScheduledAutomation(automation: automation, storeKey: store.key(for: automation), generation: 0)
                    lines.append("\(entries[key] == nil ? "scheduling" : "rescheduling") \(automation.name) (\(automation.file.lastPathComponent))")
                    entry.automation = automation
                    entry.cachedWorkflow = nil
                    entry.generation = takeGeneration()
                    entries[key] = entry
                    backlog.remove(key)
                    schedule(entry, after: max(now, cursors[entry.storeKey] ?? now))
                } else if let entry = entries.removeValue(forKey: key) {
                    entry.generation = takeGeneration()
                    backlog.remove(key)
                    let reason = current.first { $0.key == key }.map { $0.isEnabled ? "it has no schedule" : "disabled" } ?? "deleted or invalid"
                    lines.append("no longer scheduling \(entry.automation.name) (\(entry.automation.file.lastPathComponent)): \(reason)")
                }
            }
            metrics.recordScheduled(entries.count)
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
        watcher?.stop()
        stopFileTriggers()
        await waitUntil(.distantFuture) { !self.isSchedulerRunning }
        let (waiting, runningCount) = condition.withLock { () -> ([RunActivity], Int) in
            backlog = ClaimBacklog()
            var waiting: [RunActivity] = []
            for entry in entries.values {
                waiting += entry.waiting.filter(\.isConfirmed)
                entry.waiting.removeAll()
            }
            for activity in waiting { activity.cancel(reason: "cancelled: the daemon stopped before it started") }
            return (waiting, activities.count + requestTasks.count + triggeredRuns.count)
        }
        recordCancelled(waiting)
        let grace = configuration.grace
        if runningCount > 0 {
            log("stopping: waiting up to \(Self.format(grace)) for \(runningCount) running workflows")
            await waitUntil(localNow.adding(grace)) {
                self.activities.isEmpty && self.requestTasks.isEmpty && self.triggeredRuns.isEmpty || self.stopRequests > 1
            }
        }
        let late = condition.withLock { () -> [RunActivity] in
            let late = Array(activities.values)
            for activity in late { activity.cancel(reason: "cancelled: the daemon stopped and its grace period of \(Self.format(grace)) was over") }
            for task in requestTasks.values { task.cancel() }
            for run in triggeredRuns.values { run.task?.cancel() }
            return late
        }
        let lateTriggered = condition.withLock { triggeredRuns.count }
        if !late.isEmpty || lateTriggered > 0 {
            log("stopping: cancelling \(late.count + lateTriggered) workflows still running", level: .warning)
            await waitUntil(localNow.adding(Self.cancellationWait)) {
                self.activities.isEmpty && self.requestTasks.isEmpty && self.triggeredRuns.isEmpty
            }
        }
        recordStuckTriggeredRuns()
        let stuck = condition.withLock { Array(activities.values) }
        if !stuck.isEmpty {
            let note = "cancelled: the daemon stopped; the run did not end within \(Self.format(Self.cancellationWait)) of being cancelled"
            historyWrites.record(.mark(stuck.compactMap(\.claim.runID), status: .cancelled, error: note))
            for activity in stuck { activity.cancelReason = note }
            recordCancelled(stuck)
        }
        let unwritten =
            historyWrites.flush(within: Self.flushWait) + endings.flush(within: Self.flushWait)
            + requestCompletions.flush(within: Self.flushWait)
        if unwritten > 0 {
            log("stopping: \(unwritten) records could not be written, the database did not answer; the next daemon settles them", level: .error)
        }
        if let lease = currentLease {
            do { try store.stopped(lease) } catch { log("cannot record that the daemon stopped: \(error)", level: .error) }
        }
        condition.withLock {
            isHeartbeatStopping = true
            condition.broadcast()
        }
        await waitUntil(.distantFuture) { !self.isHeartbeatRunning }
        lock?.release()
        condition.withLock {
            lifecycle = .stopped
            condition.broadcast()
        }
        log("stopped")
    }

    private var isShuttingDown = false

    /// Waits until a condition holds (read with the lock held, checked at every broadcast of
    /// `condition`) or the daemon's clock reaches a deadline; on a thread of its own, as the
    /// wait is on the condition.
    private func waitUntil(_ deadline: Date, _ predicate: @escaping @Sendable () -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread { [self] in
                condition.lock()
                while !predicate(), clock.local.wait(on: condition, until: deadline) {}
                condition.unlock()
                continuation.resume()
            }
            thread.name = "automation daemon stopping"
            thread.start()
        }
    }

    // MARK: Text

    static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func format(_ duration: Duration) -> String {
        DurationSyntax.describe(duration)
    }

}

/// A due time about to be claimed, with its automation.
struct PendingClaim {
    var request: ClaimRequest
    var entry: ScheduledAutomation
    /// The earliest due time it stands for: kept in the backlog when the database cannot be
    /// reached (a catch-up claim stands for every missed due time of its plan).
    var earliest: Date
}
