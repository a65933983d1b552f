import Clockwork
import Foundation
import IntentKit
import Logging
import Synchronization
import WorkflowKit

/// The stores a daemon keeps its state and its runs in.
public struct DaemonStores: Sendable {
    public var automations: AutomationStore
    public var history: RunHistory

    public init(automations: AutomationStore, history: RunHistory) {
        self.automations = automations
        self.history = history
    }
}

/// Runs the automations of a folder of workflow files until stopped.
///
/// The daemon loads every workflow with an `automation:` block, then sleeps until the earliest
/// due time (no polling: a thousand idle automations cost nothing). When due times come,
/// it claims them in one SQLite transaction (``Claim``) and runs only those it claimed, so
/// a due time runs at most once even with two daemons on the same `$SHORTCUTS_HOME` or a
/// `kill -9` at any moment. Runs are headless (a question fails the run, with the question in
/// its trace), recorded in the run history with the trigger `automation`, and follow the
/// automation's `overlap:`, `timeout:` and `retry:`. After a restart, the due times missed
/// while no daemon ran follow `catchUp:`; runs that a dead daemon left running are marked
/// `interrupted`. Edits to the folder are picked up as they happen, and on ``reload()``.
/// Automations scheduled `@reboot` run once each time the daemon starts.
///
/// Automations with `watch:` run when files change in their folder: the daemon watches
/// each folder with inotify, sums up the events of a file until it is quiet for the
/// automation's `debounce:` (a file still being written waits for its writer to close it),
/// and runs the automation once per burst whose event and name it listens to, with the
/// file's path as the input `file` and the event as `event`, recorded with the trigger
/// `file`. These runs are not claimed: each daemon runs those of its own machine's files.
/// Automations with `webhook:` run when a web server in the daemon's process asks
/// (``automation(forWebhook:)``, ``runNow(_:inputs:trigger:workflow:started:)``).
///
/// ```swift
/// let daemon = AutomationDaemon(.init(workflows: URL(fileURLWithPath: "Workflows"), catalog: catalog),
///                               logger: Logger(label: "shortcuts.daemon"))
/// signal(SIGTERM, SIG_IGN)
/// let term = DispatchSource.makeSignalSource(signal: SIGTERM)
/// term.setEventHandler { daemon.requestStop() }
/// term.resume()
/// try await daemon.run()   // returns after SIGTERM, once the runs ended or the grace period is over
/// ```
public final class AutomationDaemon: Sendable {
    /// What the daemon runs, where it keeps its state, and how it stops.
    public struct Configuration: Sendable {
        /// The folder of workflow files.
        public var workflows: URL
        /// The installed apps the workflows use.
        public var catalog: IntentCatalog
        /// Where `automations.sqlite`, `runs.sqlite` and the lock files live.
        public var home: URL
        /// The secrets `${secrets.NAME}` reads, masked in every run's trace, history record,
        /// error and log record: `secrets.json` in ``home`` by default. Automations are not
        /// refused for a secret that is missing when they are loaded (it may be stored before
        /// they are due); a run that reads one fails, naming it.
        public var secrets: SecretStore?
        /// How long running workflows may go on after a stop is requested before they are cancelled.
        public var grace: Duration
        /// The locale of dialogs.
        public var locale: String
        /// Whether edits to the folder are picked up while running.
        public var watchesFolder: Bool
        /// Where the daemon's state and the run history are kept: `nil` for the SQLite files in
        /// ``home`` (`automations.sqlite`, `runs.sqlite`), or stores on a shared database
        /// (PostgreSQL), for daemons on several machines.
        public var stores: DaemonStores?
        /// How long the daemon's lease lasts without a renewal (renewed every quarter of it):
        /// after that, another daemon settles its claims. 10 seconds by default.
        public var lease: Duration = .seconds(10)
        /// The clock the daemon reads the time and waits by: due times, leases and heartbeats,
        /// retry backoff, grace periods, file debouncing. The real clock by default; a test
        /// gives a `ManualClock` and advances it.
        public var clock: any EngineClock = .system

        /// Creates a configuration.
        ///
        /// ```swift
        /// var configuration = AutomationDaemon.Configuration(workflows: URL(fileURLWithPath: "Workflows"), catalog: catalog)
        /// configuration.grace = .seconds(30)
        /// ```
        ///
        /// - Parameters:
        ///   - workflows: The folder of workflow files.
        ///   - catalog: The installed apps.
        ///   - home: The state folder; `$SHORTCUTS_HOME` by default.
        ///   - grace: The grace period of a stop; 10 seconds by default.
        ///   - locale: The locale of dialogs; `en` by default.
        ///   - watchesFolder: Whether to reload on edits; `true` by default.
        public init(
            workflows: URL, catalog: IntentCatalog, home: URL = ShortcutsHome.directory(),
            grace: Duration = .seconds(10), locale: String = "en", watchesFolder: Bool = true
        ) {
            self.workflows = workflows
            self.catalog = catalog
            self.home = home
            self.secrets = SecretStore(folder: home)
            self.grace = grace
            self.locale = locale
            self.watchesFolder = watchesFolder
        }
    }

    private let configuration: Configuration
    private let logger: Logger
    /// Made with the metrics factory in force when the daemon is created.
    private let metrics = DaemonMetrics()
    /// The identifier this daemon records in its claims (`daemonID`).
    public let identifier = UUID().uuidString.lowercased()
    private let state = Mutex(State.created(stopRequests: 0))

    /// Before ``start()`` there is no engine: stop requests are counted, to be passed on.
    private enum State {
        case created(stopRequests: Int)
        case running(DaemonEngine)
        case stopped
    }

    /// The engine once started.
    private var engine: DaemonEngine? {
        state.withLock { state in
            if case .running(let engine) = state { return engine }
            return nil
        }
    }

    /// Creates a daemon; nothing happens before ``run()`` or ``start()``.
    ///
    /// ```swift
    /// let daemon = AutomationDaemon(configuration, logger: Logger(label: "shortcuts.daemon"))
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: What to run and where.
    ///   - logger: Receives one record per event: loading, located errors of invalid files (`error`),
    ///     runs starting and ending, skipped and missed due times, text the workflows show, recovery
    ///     and other daemons on the same state (`warning`), stopping. A record may span lines (a
    ///     located error with its caret); the log handler decides how to print it.
    ///     The default logs nothing.
    public init(_ configuration: Configuration, logger: Logger = Logger(label: "shortcuts.daemon") { _ in SwiftLogNoOpLogHandler() }) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Handles the file events the system has queued so far, as ``FileTriggerWatcher/handlePendingEvents()``
    /// does: the step a test on a manual clock takes between changing files and advancing the clock.
    ///
    /// - Returns: How many bursts of file events are in progress.
    @discardableResult
    func handlePendingFileEvents() -> Int {
        guard let engine else { return 0 }
        return engine.condition.withLock { engine.fileTriggers }?.handlePendingEvents() ?? 0
    }

    /// Reads the whole folder again and reschedules what changed, as an edit would (SIGHUP).
    ///
    /// ```swift
    /// daemon.reload()
    /// ```
    public func reload() {
        guard let engine else { return }
        engine.log("reloading \(engine.configuration.workflows.relativePath)")
        engine.requestReload(nil)
    }

    /// Starts the daemon, runs automations until ``requestStop()``, then stops it.
    ///
    /// ```swift
    /// try await daemon.run { print("ready") }
    /// ```
    ///
    /// - Parameter started: Called once the automations are scheduled (to tell a service manager).
    /// - Throws: ``AutomationError`` when the folder is missing or the state cannot be opened.
    public func run(started: () -> Void = {}) async throws {
        try start()
        started()
        await engine?.stopRequested()
        await stop()
    }

    /// Loads the automations, marks what a dead daemon left running, applies catch-up and
    /// starts scheduling; returns once the daemon runs.
    ///
    /// ```swift
    /// try daemon.start()
    /// ```
    ///
    /// - Throws: ``AutomationError`` when the folder is missing or the state cannot be opened.
    public func start() throws {
        let isFirst = state.withLock { state -> Bool in
            guard case .created = state else { return false }
            return true
        }
        guard isFirst else { return }
        let engine = try DaemonEngine.start(configuration, logger: logger, daemonID: identifier, metrics: metrics)
        // A stop requested while it started stands: it is passed on now.
        let stops = state.withLock { state -> Int in
            guard case .created(let stops) = state else { return 0 }
            state = .running(engine)
            return stops
        }
        for _ in 0..<stops { engine.requestStop() }
    }

    /// Asks the daemon to stop: no new runs start, queued due times are cancelled, running
    /// workflows get the grace period to end and are then cancelled. A second request cancels
    /// them at once. Safe to call from a signal handler's queue.
    ///
    /// ```swift
    /// daemon.requestStop()
    /// ```
    public func requestStop() {
        let engine = state.withLock { state -> DaemonEngine? in
            switch state {
            case .created(let stops):
                state = .created(stopRequests: stops + 1)
                return nil
            case .running(let engine): return engine
            case .stopped: return nil
            }
        }
        engine?.requestStop()
    }

    /// Stops the daemon and returns once every run ended and was recorded.
    ///
    /// ```swift
    /// await daemon.stop()
    /// ```
    public func stop() async {
        let engine = state.withLock { state -> DaemonEngine? in
            switch state {
            case .created:
                // Never started: nothing runs.
                state = .stopped
                return nil
            case .running(let engine): return engine
            case .stopped: return nil
            }
        }
        guard let engine else { return }
        engine.requestStopIfNeeded()
        await engine.shutDown()
    }

    /// How many automations are scheduled (valid and enabled).
    ///
    /// ```swift
    /// print("scheduling", daemon.scheduledCount)
    /// ```
    public var scheduledCount: Int { engine?.scheduledCount ?? 0 }

    /// The enabled automation whose `webhook:` has this name, as the daemon last read its
    /// folder (edits are picked up as they happen): what a request to `/hooks/NAME` runs.
    ///
    /// ```swift
    /// guard let automation = daemon.automation(forWebhook: "deploy") else { return .notFound }
    /// ```
    ///
    /// - Parameter name: The webhook's name.
    /// - Returns: The automation, or `nil` when no enabled automation of the folder has this webhook.
    public func automation(forWebhook name: String) -> Automation? {
        engine?.automation(forWebhook: name)
    }

    /// Runs an automation now, in the daemon, as its file events run: headless, within its
    /// `timeout:`, with its `retry:`, reading and masking the daemon's secrets, recorded in its
    /// run history with `trigger`, logged, and given the grace period when the daemon stops.
    /// Nothing is claimed, and `overlap:` does not apply.
    ///
    /// ```swift
    /// let workflow = try automation.loadWorkflow(catalog: catalog)
    /// let inputs = try automation.webhookInputs(fromBody: body, workflow: workflow, catalog: catalog)   // 422 when it throws
    /// let outcome = await daemon.runNow(automation, inputs: inputs, trigger: "webhook", workflow: workflow) { runID, attempt in
    ///     if attempt == 1 { respond(202, runID) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - automation: The automation, such as ``automation(forWebhook:)`` found.
    ///   - inputs: The input values.
    ///   - trigger: What the run history records as the trigger, such as `webhook`.
    ///   - workflow: The workflow, when the caller loaded it already (to check the inputs).
    ///   - started: Called once per attempt with its run id and number, once its start is recorded.
    /// - Returns: How the last attempt ended; cancelled without a run when the daemon is not
    ///   running (not started, or stopping).
    public func runNow(
        _ automation: Automation, inputs: [String: IntentValue] = [:], trigger: String, workflow: Workflow? = nil,
        started: @escaping @Sendable (_ runID: String, _ attempt: Int) -> Void = { _, _ in }
    ) async -> Automation.RunOutcome {
        guard let engine else { return Automation.RunOutcome(status: .cancelled, error: "the daemon is not running") }
        return await engine.runTriggered(automation, inputs: inputs, trigger: trigger, workflow: workflow, detail: trigger, started: started)
    }
}
