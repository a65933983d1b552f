#if Web
    import AutomationKit
    import Foundation
    import Logging
    import WorkflowKit

    /// Everything the routes share: the configuration, the templates, the sessions and form
    /// tokens, the throttle, the runs started from the pages and by webhooks, the webhooks'
    /// rates, and the live updates.
    final class DashboardSite: Sendable {
        let configuration: DashboardConfiguration
        let templates: TemplateLibrary
        let sessions: SessionStore
        let throttle: RefusalThrottle
        let launcher: RunLauncher
        let broadcaster: RunBroadcaster
        /// The runs started from the pages and by webhooks that have not ended.
        let runs = BackgroundRuns()
        /// Each webhook's `rate:`.
        let webhookLimiter: WebhookRateLimiter

        init(_ configuration: DashboardConfiguration) throws {
            self.configuration = configuration
            templates = try TemplateLibrary()
            sessions = SessionStore(clock: configuration.clock)
            throttle = RefusalThrottle(clock: configuration.clock)
            launcher = RunLauncher(configuration, runs: runs)
            broadcaster = RunBroadcaster(configuration)
            webhookLimiter = WebhookRateLimiter(clock: configuration.clock)
        }

        var logger: Logger { configuration.logger }

        /// What hides the stored secrets' values in what pages show; read for each page, so that
        /// secrets stored while the server runs are masked too.
        var mask: SecretMask { configuration.secrets?.mask() ?? .none }

        /// The shown form of a time, in the configured time zone.
        var times: TimeText { TimeText(zone: configuration.timeZone, clock: configuration.clock) }
    }
#endif
