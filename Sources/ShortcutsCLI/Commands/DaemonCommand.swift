import ArgumentParser
import AutomationKit
import Clockwork
import Dashboard
import Foundation
import IntentExtensions
import Logging
import WorkflowKit

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run the automations of a folder of workflows until stopped.",
        discussion: """
            Every workflow file with an automation: block runs on its schedule, headless, recorded in the run history \
            (shortcuts runs list). One with watch: runs when files of its folder are created, modified or deleted (watched \
            with inotify; one run per file once its events pause for debounce:), with the file as its input 'file' and the \
            event as 'event', recorded with the trigger 'file'; each daemon watches its own machine's files. Edits to the \
            folder are picked up as they happen; files with errors are reported and skipped. State: \
            $SHORTCUTS_HOME/automations.sqlite (claimed due times), runs.sqlite (runs), daemons/ (one lock file per \
            running daemon; stale ones are removed at start). SIGTERM or Ctrl-C stops it: running \
            workflows get the grace period, then are cancelled; a second signal cancels them at once. Exit 0 once stopped. \
            SIGHUP reloads the folder. Workflows read secrets (${secrets.NAME}) from $SHORTCUTS_HOME/secrets.json, \
            as shortcuts run does; a missing one fails the run that reads it, and every stored value is masked as *** in \
            the log and the run history. Automations scheduled @reboot run once each time the daemon starts. Logs go to \
            standard error, one line per record; under journald (JOURNAL_STREAM) without a time of their own. With \
            NOTIFY_SOCKET set (systemd Type=notify) it sends READY=1 once scheduled and STOPPING=1 when stopping.
            With SHORTCUTS_DATABASE_URL (or --database) the state and the runs are kept in that PostgreSQL database \
            instead, shared by daemons on many machines that each deploy the same folder: every due time runs once in \
            one of them, and a daemon whose lease (--lease) runs out without a renewal has its runs settled and its \
            share taken over by the others (shortcuts daemons list shows them).
            With --http ADDRESS it also serves the web dashboard, as shortcuts serve does, until it stops (a build with \
            --traits Web), and the webhooks of its automations (POST /hooks/NAME), which it runs. Automations with watch: \
            run when files of their folder are created, modified or deleted, once per burst of a file's events.
            Example: shortcuts daemon --workflows /srv/shortcuts/Workflows --grace 30s
            """)

    @Option(name: .long, help: ArgumentHelp("The folder of workflow files.", valueName: "dir"))
    var workflows = "Workflows"

    @Option(
        name: .long, help: ArgumentHelp("How long running workflows may go on after SIGTERM or Ctrl-C, such as 10s or 1m.", valueName: "duration"))
    var grace = "10s"

    @OptionGroup var log: LogOptions

    @Option(
        name: .long,
        help: ArgumentHelp("How long an extension may stay up without requests before it is stopped, such as 300s or 10m.", valueName: "duration"))
    var extensionIdleTimeout = "300s"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With a shared database: how long this daemon's lease lasts without a renewal (renewed every quarter of it), such as 10s; "
                + "after that another daemon takes its share over.", valueName: "duration"))
    var lease = "10s"

    @OptionGroup var locale: LocaleOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var dashboard: DashboardOptions

    func validate() throws {
        guard DurationSyntax.parse(grace) != nil else {
            throw ValidationError("--grace '\(grace)' is not a duration such as 10s, 1m or 500ms")
        }
        guard DurationSyntax.parse(extensionIdleTimeout) != nil else {
            throw ValidationError("--extension-idle-timeout '\(extensionIdleTimeout)' is not a duration such as 300s or 10m")
        }
        guard let leaseDuration = DurationSyntax.parse(lease), leaseDuration >= .seconds(1) else {
            throw ValidationError("--lease '\(lease)' is not a duration of a second or more, such as 10s or 30s")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: workflows, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("no workflows folder '\(workflows)'; pass --workflows DIR")
        }
        if dashboard.http == nil, dashboard.token != nil || dashboard.tokenSecret != nil {
            throw ValidationError("--token and --token-secret protect the dashboard of --http; add --http ADDRESS")
        }
    }

    func run() async throws {
        var configuration = AutomationDaemon.Configuration(
            workflows: URL(fileURLWithPath: workflows, isDirectory: true), catalog: Installation.shared.catalog,
            grace: DurationSyntax.parse(grace) ?? .seconds(10), locale: locale.resolvedLocale)
        configuration.lease = DurationSyntax.parse(lease) ?? .seconds(10)
        configuration.clock = TaskClock.current
        let secrets = configuration.secrets
        let logger = log.logger(label: "shortcuts.daemon", masking: secrets)
        ExtensionLog.install(logger)
        if dashboard.http != nil {
            try DashboardOptions.requireBuiltIn()
            // Before any store, runner or extension host is made: each binds its metrics to the
            // backend installed when it is created.
            #if Web
                DashboardMetrics.bootstrap()
            #endif
        }
        if let source = store.source {
            let stores: StateStores
            do {
                stores = try StateStores.open(source, logger: logger)
            } catch {
                logger.critical("\(error)")
                throw error
            }
            configuration.stores = DaemonStores(automations: stores.automations, history: stores.history)
            logger.info("state and runs in the shared database \(stores.sharedLocation ?? source.shownURL)")
        }
        LoadedExtensions.setIdleTimeout(DurationSyntax.parse(extensionIdleTimeout))
        var served = try dashboardConfiguration(logger: logger)
        let daemon = AutomationDaemon(configuration, logger: logger)
        served?.webhooks = .daemon(daemon)
        let watch = SignalWatch([SIGTERM, SIGINT, SIGHUP]) { number in
            if number == SIGHUP {
                logger.info("received SIGHUP: reloading the folder")
                daemon.reload()
                return
            }
            logger.info("received \(number == SIGTERM ? "SIGTERM" : "SIGINT"): stopping")
            ServiceManagerNotification.send("STOPPING=1")
            daemon.requestStop()
        }
        let dashboardTask = startDashboard(served, stoppingOnFailure: daemon)
        do {
            try await daemon.run { ServiceManagerNotification.send("READY=1\nMAINPID=\(getpid())") }
        } catch {
            logger.critical("\(error)")
            throw CommandLineError(error)
        }
        watch.stop()
        dashboardTask?.cancel()
        try await dashboardTask?.value
    }

    /// The dashboard's configuration with `--http`, on the daemon's stores; `nil` without.
    private func dashboardConfiguration(logger: Logger) throws -> DashboardConfiguration? {
        guard dashboard.http != nil else { return nil }
        let stores = try StateStores.open(store.source, logger: logger)
        return try dashboard.configuration(
            defaultAddress: ListenAddress.standard.description, workflows: workflows, stores: stores, locale: locale.resolvedLocale,
            logger: logger)
    }

    /// Serves the dashboard beside the daemon; a dashboard that cannot start stops the daemon.
    private func startDashboard(_ configuration: DashboardConfiguration?, stoppingOnFailure daemon: AutomationDaemon) -> Task<Void, any Error>? {
        #if Web
            guard let configuration else { return nil }
            let task = DashboardHosting.start(configuration)
            Task {
                if case .failure = await task.result { daemon.requestStop() }
            }
            return task
        #else
            return nil
        #endif
    }
}
