import AutomationKit
import Foundation
import IntentKit
import Logging
import WorkflowKit

/// Where the dashboard finds the automation a request to `POST /hooks/NAME` runs, and what runs
/// it: the daemon serving the dashboard (`shortcuts daemon --http`), or this process over a
/// folder of workflow files (`shortcuts serve`).
///
/// ```swift
/// configuration.webhooks = .daemon(daemon)
/// configuration.webhooks = .folder(WebhookFolder(workflows, catalog: catalog), catalog: catalog, history: history, secrets: secrets)
/// ```
public struct WebhookSource: Sendable {
    /// A run's first attempt started: its run id.
    public typealias Started = @Sendable (_ runID: String, _ attempt: Int) -> Void

    /// The enabled automation whose webhook has a name, if any.
    let automation: @Sendable (String) -> Automation?
    /// Runs an automation with checked inputs, telling each attempt's run id once recorded.
    let run: @Sendable (Automation, [String: IntentValue], Workflow, @escaping Started) async -> Automation.RunOutcome

    /// A source from its two parts.
    ///
    /// - Parameters:
    ///   - automation: The enabled automation whose webhook has a name.
    ///   - run: Runs an automation with its inputs and loaded workflow, calling `started` once
    ///     per attempt, and returns how the last attempt ended.
    public init(
        automation: @escaping @Sendable (String) -> Automation?,
        run: @escaping @Sendable (Automation, [String: IntentValue], Workflow, @escaping Started) async -> Automation.RunOutcome
    ) {
        self.automation = automation
        self.run = run
    }

    /// The webhooks of a running daemon, run by it: logged, in its run history, and given its
    /// grace period when it stops.
    ///
    /// - Parameter daemon: The daemon.
    /// - Returns: The source.
    public static func daemon(_ daemon: AutomationDaemon) -> WebhookSource {
        WebhookSource(
            automation: { daemon.automation(forWebhook: $0) },
            run: { automation, inputs, workflow, started in
                await daemon.runNow(automation, inputs: inputs, trigger: WebhookSource.trigger, workflow: workflow, started: started)
            })
    }

    /// The webhooks of a folder, run in this process, headless, with each automation's
    /// `timeout:` and `retry:`.
    ///
    /// - Parameters:
    ///   - folder: The folder's webhooks, kept current.
    ///   - catalog: The installed apps.
    ///   - history: Where runs are recorded.
    ///   - secrets: What `${secrets.NAME}` reads and runs mask.
    ///   - locale: The language of dialogs.
    ///   - logger: Receives what the workflows show, and failed attempts.
    /// - Returns: The source.
    public static func folder(
        _ folder: WebhookFolder, catalog: IntentCatalog, history: RunHistory, secrets: SecretStore?, locale: String = "en",
        logger: Logger
    ) -> WebhookSource {
        WebhookSource(
            automation: { folder.automation(forWebhook: $0) },
            run: { automation, inputs, workflow, started in
                await automation.runNow(
                    inputs: inputs, trigger: WebhookSource.trigger, workflow: workflow, catalog: catalog, history: history, secrets: secrets,
                    locale: locale, show: { logger.info("\(automation.name): \($0)") }, started: started, clock: history.clock)
            })
    }

    /// The trigger webhook runs are recorded with.
    public static let trigger = "webhook"
}
