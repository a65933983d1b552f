import Clockwork
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Tells the daemon which workflow files changed, as they change.
///
/// On Linux it uses inotify on the folder: a file written and closed, moved in or out,
/// or deleted is reported by name, a tenth of a second after the first event of a burst, with
/// every name the burst touched (an editor's save is several events). Without inotify (another system, or no watch left:
/// `fs.inotify.max_user_watches`), it checks the folder's files every two seconds instead
/// (sizes, modification times, inodes: no file is read unless it changed).
///
/// ```swift
/// let watcher = FolderWatcher(folder: URL(fileURLWithPath: "Workflows"), clock: .system) { names in
///     engine.requestReload(names)   // nil: look at every file
/// }
/// watcher.start()
/// ```
final class FolderWatcher: @unchecked Sendable {
    let folder: URL
    private let onChange: @Sendable (Set<String>?) -> Void
    private let queue = DispatchQueue(label: "shortcuts.automations.folder-watcher")
    /// What the debounce and the polling wait by.
    private let clock: any EngineClock
    private var polling: Task<Void, Never>?
    #if canImport(Glibc)
        private var inotify: Inotify?
    #endif
    private var pendingNames: Set<String> = []
    private var pendingAll = false
    private var isFlushScheduled = false

    static let debounce: Duration = .milliseconds(100)
    static let pollingInterval: Duration = .seconds(2)

    /// How the watcher learns of changes, for the daemon's log.
    private(set) var mechanism = "none"

    init(folder: URL, clock: any EngineClock, onChange: @escaping @Sendable (Set<String>?) -> Void) {
        self.folder = folder
        self.clock = clock
        self.onChange = onChange
    }

    func start() {
        queue.sync {
            #if canImport(Glibc)
                if startInotify() { return }
            #endif
            startPolling()
        }
    }

    func stop() {
        queue.sync {
            polling?.cancel()
            polling = nil
            #if canImport(Glibc)
                inotify?.cancel()
                inotify = nil
            #endif
        }
    }

    private func startPolling() {
        polling = Task.detached { [clock, onChange] in
            while true {
                do { try await clock.sleep(for: Self.pollingInterval) } catch { return }
                onChange(nil)
            }
        }
        mechanism = "checking every 2 s"
    }

    #if canImport(Glibc)
        private func startInotify() -> Bool {
            guard let inotify = Inotify(queue: queue, handler: { [weak self] events in self?.note(events) }) else { return false }
            let mask =
                UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE)
                | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
            guard case .success = inotify.addWatch(path: folder.path, mask: mask) else {
                inotify.cancel()
                return false
            }
            self.inotify = inotify
            mechanism = "inotify"
            return true
        }

        /// Notes the names the events touched; an overflow or the folder itself going away
        /// means every file must be looked at.
        private func note(_ events: [Inotify.Event]) {
            for event in events {
                if event.has(IN_Q_OVERFLOW) || event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) || event.has(IN_IGNORED) {
                    pendingAll = true
                } else if let name = event.name {
                    pendingNames.insert(name)
                }
            }
            scheduleFlush()
        }
    #endif

    private func scheduleFlush() {
        guard !isFlushScheduled, pendingAll || !pendingNames.isEmpty else { return }
        isFlushScheduled = true
        Task.detached { [weak self, clock, queue] in
            try? await clock.sleep(for: Self.debounce)
            guard let self else { return }
            queue.async { self.flush() }
        }
    }

    /// Reports the names noted since the last flush. Runs on `queue`.
    private func flush() {
        let names: Set<String>? = pendingAll ? nil : pendingNames
        pendingNames = []
        pendingAll = false
        isFlushScheduled = false
        onChange(names)
    }
}
