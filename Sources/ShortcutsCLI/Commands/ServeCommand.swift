import ArgumentParser
import AutomationKit
import Dashboard
import Foundation
import Logging
import WorkflowKit

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the web dashboard: automations, workflows, runs, charts, search and intents, with live updates.",
        discussion: """
            The pages read the store the other commands use (the SQLite files of $SHORTCUTS_HOME, or \
            $SHORTCUTS_DATABASE_URL / --database), so runs of daemons anywhere on it show up as they start and end. \
            Runs started from the pages run in this process, headless, recorded with the trigger 'dashboard'; so do the \
            webhooks of the folder's automations (POST /hooks/NAME, authenticated by each webhook's secret, trigger 'webhook'). \
            It listens on 127.0.0.1:8080 by default; another address needs a token (--token-secret or --token), \
            which every page, /events and /metrics then need. /healthz needs none. Logs go to standard error as the \
            daemon's do: a line per request at debug, refusals at warning. SIGTERM or Ctrl-C stops it, cancelling the \
            runs it started. `shortcuts daemon --http ADDRESS` serves the same pages from a daemon.
            Needs a build with the web dashboard: swift build --traits Web.
            Example: shortcuts serve --http 0.0.0.0:8080 --token-secret DASHBOARD_TOKEN
            """,
        // A build without the dashboard does not list it; run, it says how to build one that serves.
        shouldDisplay: DashboardSupport.isBuiltIn)

    @OptionGroup var dashboard: DashboardOptions

    @Option(name: .long, help: ArgumentHelp("The folder of workflow files.", valueName: "dir"))
    var workflows = "Workflows"

    @OptionGroup var log: LogOptions
    @OptionGroup var locale: LocaleOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: workflows, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("no workflows folder '\(workflows)'; pass --workflows DIR")
        }
    }

    func run() async throws {
        try DashboardOptions.requireBuiltIn()
        // Before the stores are opened: each binds its metrics to the backend installed when it is created.
        #if Web
            DashboardMetrics.bootstrap()
        #endif
        let secrets = SecretStore.standard()
        let logger = log.logger(label: "shortcuts.dashboard", masking: secrets)
        let stores = try StateStores.open(store.source, logger: logger)
        var configuration = try dashboard.configuration(
            defaultAddress: ListenAddress.standard.description, workflows: workflows, stores: stores, locale: locale.resolvedLocale,
            logger: logger)
        configuration.webhooks = .folder(
            WebhookFolder(configuration.workflows, catalog: configuration.catalog), catalog: configuration.catalog, history: stores.history,
            secrets: configuration.secrets, locale: configuration.locale, logger: logger)
        if let location = stores.sharedLocation { logger.info("runs and automations from the shared database \(location)") }
        #if Web
            try await DashboardHosting.serve(configuration, until: [SIGTERM, SIGINT])
        #endif
    }
}
