import AutomationKit
import Clockwork
import Foundation
import IntentKit
import Logging
import SpotlightKit
import WorkflowKit

/// What the dashboard serves and how: where it listens, the token that protects it, the
/// workflows folder, the installed apps, the stores it reads, and the logger its records go to.
///
/// The command line builds it from its options (`shortcuts serve`, `shortcuts daemon --http`);
/// the dashboard depends on nothing else of the command line.
///
/// ```swift
/// var configuration = DashboardConfiguration(
///     workflows: URL(fileURLWithPath: "Workflows"), catalog: catalog,
///     automations: try AutomationStore.shared(), history: try RunHistory.shared(), logger: logger)
/// configuration.address = try ListenAddress(parsing: "0.0.0.0:8080")
/// configuration.token = token
/// try await DashboardServer(configuration).run()
/// ```
public struct DashboardConfiguration: Sendable {
    /// Where to listen; `127.0.0.1:8080` by default.
    public var address: ListenAddress = .standard
    /// The token every page, `/events` and `/metrics` need (`Authorization: Bearer`, or the
    /// cookie of the sign-in form); `nil` for none, allowed on a loopback address only.
    public var token: String?
    /// The folder of workflow files whose workflows and automations the pages show.
    public var workflows: URL
    /// The installed apps: workflows are validated and run against them, and the intents page lists them.
    public var catalog: IntentCatalog
    /// The language of dialogs and titles.
    public var locale: String = "en"
    /// The daemons' state: claimed due times and how they went.
    public var automations: AutomationStore
    /// The run history the pages read and the runs started from the pages are recorded in.
    public var history: RunHistory
    /// The search indexes the search page searches; those of the installed apps and
    /// `$SHORTCUTS_HOME/indexes` by default.
    public var search: SearchIndexCatalog
    /// The secrets runs read; every stored value is masked as `***` in what the pages show.
    public var secrets: SecretStore?
    /// The environment variables `${env.NAME}` reads in runs started from the pages.
    public var environment: [String: String] = ProcessInfo.processInfo.environment
    /// The tool's name, for the commands that diagnostics suggest.
    public var commandName = "shortcuts"
    /// Where requests, refusals and the server's own records are logged.
    public var logger: Logger
    /// The time zone times are shown in, and `datetime-local` form values are read in.
    public var timeZone: TimeZone = .current
    /// The clock the dashboard reads the time and waits by: live updates' polling and
    /// heartbeats, webhooks' rates. The real clock by default.
    public var clock: any EngineClock = .system
    /// How often the run history is read for live updates while a page listens.
    public var pollInterval: Duration = .milliseconds(500)
    /// How often a comment is sent on `/events` so that proxies keep the stream open.
    public var heartbeatInterval: Duration = .seconds(15)
    /// How many runs started from the pages may run at once in this process.
    public var concurrentRunLimit = 16
    /// The automations `POST /hooks/NAME` runs, and what runs them; `nil` serves no webhook.
    public var webhooks: WebhookSource?
    /// The largest webhook request body, in bytes: 1 MiB by default; a larger one is refused with 413.
    public var webhookBodyLimit = 1 << 20

    /// The least length of a token.
    public static let minimumTokenLength = 16

    /// A configuration with the defaults: `127.0.0.1:8080`, no token, English, the system's time zone.
    ///
    /// - Parameters:
    ///   - workflows: The folder of workflow files.
    ///   - catalog: The installed apps.
    ///   - automations: The daemons' state.
    ///   - history: The run history.
    ///   - search: The search indexes; those of the installed apps and `$SHORTCUTS_HOME/indexes` when `nil`.
    ///   - secrets: The secrets runs read and pages mask.
    ///   - logger: Where records go.
    public init(
        workflows: URL, catalog: IntentCatalog, automations: AutomationStore, history: RunHistory,
        search: SearchIndexCatalog? = nil, secrets: SecretStore? = nil, logger: Logger
    ) {
        self.workflows = workflows
        self.catalog = catalog
        self.automations = automations
        self.history = history
        self.search = search ?? SearchIndexCatalog(intents: catalog)
        self.secrets = secrets
        self.logger = logger
    }

    /// Checks that the dashboard is not served to other machines unprotected: an address other
    /// than the loopback needs a token of at least ``minimumTokenLength`` characters.
    ///
    /// ```swift
    /// try configuration.checkExposure()   // throws for 0.0.0.0:8080 without a token
    /// ```
    ///
    /// - Throws: ``DashboardError/exposedWithoutToken(_:)`` or ``DashboardError/weakToken(length:minimum:)``.
    public func checkExposure() throws(DashboardError) {
        if let token, token.count < Self.minimumTokenLength {
            throw .weakToken(length: token.count, minimum: Self.minimumTokenLength)
        }
        if token == nil, !address.isLoopback { throw .exposedWithoutToken(address) }
    }
}
