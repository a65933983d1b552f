import Clockwork
import Foundation
import IntentKit
import Synchronization
import WorkflowKit

/// The webhooks of a folder of workflow files, kept current as the files change, for a process
/// that serves webhooks without being the daemon (`shortcuts serve`); a daemon gives its own
/// (``AutomationDaemon/automation(forWebhook:)``).
///
/// The folder is read once, then again as its files change (inotify; a two-second comparison
/// where inotify is missing), as the daemon reads it: only the files that changed are read
/// and validated again.
///
/// ```swift
/// let webhooks = WebhookFolder(URL(fileURLWithPath: "Workflows"), catalog: catalog)
/// guard let automation = webhooks.automation(forWebhook: "deploy") else { return .notFound }
/// ```
public final class WebhookFolder: Sendable {
    private struct State {
        var folder: AutomationFolder
        /// The enabled automations with a webhook, by name, made again at each read.
        var enabled: [String: Automation]

        init(_ folder: AutomationFolder) {
            self.folder = folder
            enabled = folder.webhooks.filter { $0.value.isEnabled }
        }
    }

    /// The state, shared with the watcher's callback.
    private final class Current: Sendable {
        let state: Mutex<State>

        init(_ state: State) { self.state = Mutex(state) }
    }

    private let current: Current
    private let watcher: FolderWatcher

    /// Reads a folder and starts following its changes.
    ///
    /// - Parameters:
    ///   - directory: The folder of workflow files.
    ///   - catalog: The installed apps, to validate the workflows against.
    ///   - clock: What the watcher's debounce waits by.
    public init(_ directory: URL, catalog: IntentCatalog, clock: any EngineClock = .system) {
        let current = Current(State(AutomationFolder.load(directory, catalog: catalog)))
        self.current = current
        watcher = FolderWatcher(folder: directory, clock: clock) { names in
            current.state.withLock { state in
                _ = state.folder.reload(names: names)
                state = State(state.folder)
            }
        }
        watcher.start()
    }

    deinit {
        watcher.stop()
    }

    /// The enabled automation whose `webhook:` has this name, as the folder is now.
    ///
    /// - Parameter name: The webhook's name.
    /// - Returns: The automation, or `nil` when no enabled automation has this webhook.
    public func automation(forWebhook name: String) -> Automation? {
        current.state.withLock { $0.enabled[name] }
    }
}
