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
/// let watcher = FolderWatcher(folder: URL(fileURLWithPath: "Workflows")) { names in
///     engine.requestReload(names)   // nil: look at every file
/// }
/// watcher.start()
/// ```
final class FolderWatcher: @unchecked Sendable {
    let folder: URL
    private let onChange: @Sendable (Set<String>?) -> Void
    private let queue = DispatchQueue(label: "shortcuts.automations.folder-watcher")
    private var source: (any DispatchSourceProtocol)?
    private var pendingNames: Set<String> = []
    private var pendingAll = false
    private var isFlushScheduled = false

    static let debounce: DispatchTimeInterval = .milliseconds(100)
    static let pollingInterval: DispatchTimeInterval = .seconds(2)

    /// How the watcher learns of changes, for the daemon's log.
    private(set) var mechanism = "none"

    init(folder: URL, onChange: @escaping @Sendable (Set<String>?) -> Void) {
        self.folder = folder
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
            source?.cancel()
            source = nil
        }
    }

    private func startPolling() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Self.pollingInterval, repeating: Self.pollingInterval, leeway: .milliseconds(500))
        timer.setEventHandler { [onChange] in onChange(nil) }
        timer.resume()
        source = timer
        mechanism = "checking every 2 s"
    }

    #if canImport(Glibc)
        private func startInotify() -> Bool {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
            guard descriptor >= 0 else { return false }
            let mask =
                UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE)
                | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
            guard inotify_add_watch(descriptor, folder.path, mask) >= 0 else {
                close(descriptor)
                return false
            }
            let reader = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            reader.setEventHandler { [weak self] in self?.readEvents(descriptor) }
            reader.setCancelHandler { close(descriptor) }
            reader.resume()
            source = reader
            mechanism = "inotify"
            return true
        }

        /// Reads the pending `inotify_event`s: a 16-byte header (wd, mask, cookie, len) then `len`
        /// bytes of NUL-padded file name.
        private func readEvents(_ descriptor: Int32) {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                var offset = 0
                while offset + 16 <= count {
                    let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                    let length = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
                    let nameBytes = buffer[(offset + 16)..<min(offset + 16 + length, count)].prefix { $0 != 0 }
                    offset += 16 + length
                    if mask & (UInt32(IN_Q_OVERFLOW) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_IGNORED)) != 0 {
                        pendingAll = true
                    } else if !nameBytes.isEmpty {
                        pendingNames.insert(String(decoding: nameBytes, as: UTF8.self))
                    }
                }
            }
            scheduleFlush()
        }
    #endif

    private func scheduleFlush() {
        guard !isFlushScheduled, pendingAll || !pendingNames.isEmpty else { return }
        isFlushScheduled = true
        queue.asyncAfter(deadline: .now() + Self.debounce) { [weak self] in
            guard let self else { return }
            let names: Set<String>? = pendingAll ? nil : pendingNames
            pendingNames = []
            pendingAll = false
            isFlushScheduled = false
            onChange(names)
        }
    }
}
