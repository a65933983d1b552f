import Clockwork
import Dispatch
import Foundation
import Logging
import WorkflowKit

#if canImport(Glibc)
    import Glibc
#endif

/// A file event that starts a run: which automation, which file, what happened.
struct FileTrigger: Sendable {
    var automation: Automation
    /// The file's absolute path.
    var file: URL
    var event: AutomationBlock.FileEvent
}

/// Watches the folders of automations with `watch:` and reports, per file, one
/// ``FileTrigger`` per burst of events (``FileBurst``) whose event and name the automation
/// listens to.
///
/// On Linux one inotify instance watches every folder, once however many automations watch
/// it. A folder that does not exist is reported, and its nearest existing parent is watched
/// for folders appearing, so that it is watched as soon as it is created (deleted later, it
/// is waited for again); the files found in a folder that appears count as created. Where inotify is missing or refuses a folder (no watch left:
/// `fs.inotify.max_user_watches`), the folder's files are compared every two seconds instead
/// (names, sizes, modification times, inodes).
///
/// ```swift
/// let watcher = FileTriggerWatcher(clock: .system, log: { message, level in logger.log(level: level, "\(message)") }) { trigger in
///     run(trigger.automation, file: trigger.file, event: trigger.event)
/// }
/// watcher.update(folder.watches.filter(\.isEnabled))
/// ```
final class FileTriggerWatcher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "shortcuts.automations.file-triggers")
    private let onTrigger: @Sendable (FileTrigger) -> Void
    private let log: @Sendable (String, Logger.Level) -> Void
    /// What debouncing and polling wait by.
    private let clock: any EngineClock

    // Touched on `queue` only.
    /// The automations watched, by key.
    private var automations: [String: Automation] = [:]
    /// Each path watched, as a folder of an automation, as the parent a missing folder waits in, or both.
    private var paths: [String: WatchedPath] = [:]
    /// The folders of automations that do not exist, and the parent each waits in.
    private var missing: [String: String] = [:]
    /// Bursts in progress, by automation key and file name.
    private var bursts: [BurstKey: FileBurst] = [:]
    private var isStopped = false
    #if canImport(Glibc)
        private var inotify: Inotify?
        private var isInotifyTried = false
    #endif
    /// Compares the polled folders every ``pollingInterval`` while any folder is polled.
    private var polling: Task<Void, Never>?

    static let pollingInterval: Duration = .seconds(2)

    private struct BurstKey: Hashable {
        var automation: String
        var name: String
    }

    private struct WatchedPath {
        var watch: Int32?
        var isFolder = false
        var isParent = false
        /// Files by name, when the folder is polled.
        var snapshot: [String: FileSignature]?
    }

    /// - Parameters:
    ///   - clock: What debouncing and polling wait by.
    ///   - log: Receives what the watcher does and the folders it cannot watch.
    ///   - onTrigger: Receives each trigger, on the watcher's queue.
    init(
        clock: any EngineClock, log: @escaping @Sendable (String, Logger.Level) -> Void, onTrigger: @escaping @Sendable (FileTrigger) -> Void
    ) {
        self.clock = clock
        self.log = log
        self.onTrigger = onTrigger
    }

    /// Watches these automations' folders from now on, and no others; pending bursts of
    /// automations no longer watched, or now watching another folder, are forgotten.
    func update(_ watched: [Automation]) {
        queue.sync {
            guard !isStopped else { return }
            let next = Dictionary(watched.compactMap { automation in automation.watchedFolder.map { _ in (automation.key, automation) } }) {
                first, _ in first
            }
            for (key, old) in automations where next[key]?.watchedFolder != old.watchedFolder {
                bursts = bursts.filter { $0.key.automation != key }
                if next[key] == nil { log("no longer watching \(old.watchedFolder?.path ?? "") for \(old.name)", .info) }
            }
            for (key, automation) in next.sorted(by: { $0.key < $1.key }) where automations[key] !== automation {
                guard let watch = automation.watch, let folder = automation.watchedFolder else { continue }
                let events = watch.events.map(\.rawValue).joined(separator: ", ")
                log(
                    "watching \(folder.path) for \(automation.name) (\(events)" + (watch.pattern.map { "; \($0.value)" } ?? "") + ")", .info)
            }
            automations = next
            resolve()
        }
    }

    /// Tries again the folders that could not be watched (a reload of the whole folder).
    func recheck() {
        queue.sync {
            guard !isStopped else { return }
            resolve()
        }
    }

    /// Handles every file event the system has queued so far: once it returns, each change
    /// made before the call is part of a burst (and has its end scheduled on the clock).
    ///
    /// A test on a manual clock calls it after changing files, so that advancing the clock
    /// cannot end a burst whose later events are still unread.
    ///
    /// - Returns: How many bursts are in progress.
    @discardableResult
    func handlePendingEvents() -> Int {
        queue.sync {
            guard !isStopped else { return 0 }
            #if canImport(Glibc)
                if let inotify { handle(inotify.readPending()) }
            #endif
            return bursts.count
        }
    }

    /// Stops watching; bursts in progress are dropped.
    func stop() {
        queue.sync {
            isStopped = true
            #if canImport(Glibc)
                inotify?.cancel()
                inotify = nil
            #endif
            polling?.cancel()
            polling = nil
            paths = [:]
            bursts = [:]
        }
    }

    // MARK: Watches

    /// Brings the watches in line with the automations' folders: watches the folders that
    /// exist, waits in the nearest existing parent of those that do not, and drops the rest.
    private func resolve() {
        let folders = Set(automations.values.compactMap { $0.watchedFolder?.path })
        var parents: [String: String] = [:]
        for folder in folders.sorted() {
            if watchFolder(folder) {
                if missing[folder] != nil {
                    log("\(folder) appeared: watching it for \(names(watching: folder))", .info)
                    // Its files are new too, and some may have come before the watch did.
                    let now = clock.now()
                    for name in (Self.snapshot(of: folder) ?? [:]).keys.sorted() { note(.created, of: name, in: folder, at: now) }
                }
                missing[folder] = nil
                continue
            }
            guard let parent = waitInParent(of: folder) else { continue }
            if missing[folder] == nil {
                log(
                    "cannot watch \(folder) for \(names(watching: folder)): it does not exist; waiting for it to appear (in \(parent))",
                    .error)
            }
            missing[folder] = parent
            parents[folder] = parent
        }
        for folder in missing.keys where !folders.contains(folder) { missing[folder] = nil }
        let neededParents = Set(parents.values)
        for (path, watched) in paths {
            let isFolder = watched.isFolder && folders.contains(path)
            let isParent = neededParents.contains(path)
            if isFolder != watched.isFolder || isParent != watched.isParent {
                apply(path, isFolder: isFolder, isParent: isParent)
            }
        }
        let isPolling = paths.values.contains { $0.snapshot != nil } || (!missing.isEmpty && !hasInotify)
        if isPolling, polling == nil {
            polling = Task.detached { [weak self, clock, queue] in
                while true {
                    do { try await clock.sleep(for: Self.pollingInterval) } catch { return }
                    guard let self else { return }
                    queue.async { self.poll() }
                }
            }
        } else if !isPolling, let task = polling {
            task.cancel()
            polling = nil
        }
    }

    private func names(watching folder: String) -> String {
        automations.values.filter { $0.watchedFolder?.path == folder }.map(\.name).sorted().joined(separator: ", ")
    }

    private var hasInotify: Bool {
        #if canImport(Glibc)
            return inotify != nil
        #else
            return false
        #endif
    }

    /// Watches a folder of automations; `false` when it does not exist (or is not a folder).
    private func watchFolder(_ folder: String) -> Bool {
        if let watched = paths[folder], watched.isFolder { return true }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else { return false }
        return apply(folder, isFolder: true, isParent: paths[folder]?.isParent ?? false)
    }

    /// Waits for a missing folder in its nearest existing parent; returns that parent.
    private func waitInParent(of folder: String) -> String? {
        var parent = URL(fileURLWithPath: folder).deletingLastPathComponent()
        while parent.path != "/" {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue { break }
            parent = parent.deletingLastPathComponent()
        }
        let path = parent.path
        if paths[path]?.isParent != true {
            apply(path, isFolder: paths[path]?.isFolder ?? false, isParent: true)
        }
        return path
    }

    /// Sets what a path is watched for, adding, changing or removing its inotify watch (or
    /// its polling); returns whether it is watched as asked.
    @discardableResult
    private func apply(_ path: String, isFolder: Bool, isParent: Bool) -> Bool {
        var watched = paths[path] ?? WatchedPath()
        guard isFolder || isParent else {
            #if canImport(Glibc)
                if let watch = watched.watch {
                    let shared = paths.contains { $0.key != path && $0.value.watch == watch }
                    if !shared { inotify?.removeWatch(watch) }
                }
            #endif
            paths[path] = nil
            return true
        }
        watched.isFolder = isFolder
        watched.isParent = isParent
        #if canImport(Glibc)
            if !isInotifyTried {
                isInotifyTried = true
                inotify = Inotify(queue: queue) { [weak self] events in self?.handle(events) }
                if inotify == nil { log("inotify is not available: checking watched folders every 2 s", .warning) }
            }
            if let inotify, watched.snapshot == nil {
                var mask = UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR)
                if isFolder {
                    mask |=
                        UInt32(IN_CREATE) | UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CLOSE_NOWRITE) | UInt32(IN_OPEN)
                        | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE)
                }
                if isParent { mask |= UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) }
                switch inotify.addWatch(path: path, mask: mask) {
                case .success(let watch):
                    watched.watch = watch
                    paths[path] = watched
                    return true
                case .failure(let error) where error.code == ENOENT || error.code == ENOTDIR:
                    if let watch = watched.watch, !paths.contains(where: { $0.key != path && $0.value.watch == watch }) {
                        inotify.removeWatch(watch)
                    }
                    paths[path] = nil
                    return false
                case .failure(let error):
                    log("cannot watch \(path) with inotify (\(error)): checking it every 2 s instead", .warning)
                }
            }
        #endif
        if watched.snapshot == nil { watched.snapshot = Self.snapshot(of: path) ?? [:] }
        paths[path] = watched
        return true
    }

    // MARK: Events

    #if canImport(Glibc)
        private func handle(_ events: [Inotify.Event]) {
            guard !isStopped else { return }
            let now = clock.now()
            var needsResolve = false
            for event in events {
                if event.has(IN_Q_OVERFLOW) {
                    log("file events were lost (the kernel's queue overflowed): some files may not have started a run", .warning)
                    continue
                }
                let watchedPaths = paths.filter { $0.value.watch == event.watch }
                if event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) || event.has(IN_IGNORED) {
                    for (path, watched) in watchedPaths {
                        if watched.isFolder {
                            log("the watched folder \(path) was deleted or moved: waiting for it to appear again", .error)
                            missing[path] = path
                        }
                        if let watch = watched.watch, !event.has(IN_IGNORED) { inotify?.removeWatch(watch) }
                        paths[path] = nil
                    }
                    needsResolve = true
                    continue
                }
                guard let name = event.name else { continue }
                if event.has(IN_ISDIR) {
                    if (event.has(IN_CREATE) || event.has(IN_MOVED_TO)) && !missing.isEmpty { needsResolve = true }
                    continue
                }
                guard let change = Self.change(of: event) else { continue }
                for (path, watched) in watchedPaths where watched.isFolder {
                    note(change, of: name, in: path, at: now)
                }
            }
            if needsResolve { resolve() }
        }

        private static func change(of event: Inotify.Event) -> FileChange? {
            if event.has(IN_DELETE) || event.has(IN_MOVED_FROM) { return .deleted }
            if event.has(IN_CREATE) || event.has(IN_MOVED_TO) { return .created }
            if event.has(IN_CLOSE_WRITE) { return .modified }
            if event.has(IN_MODIFY) { return .written }
            if event.has(IN_OPEN) { return .opened }
            if event.has(IN_CLOSE_NOWRITE) { return .closedUnwritten }
            return nil
        }
    #endif

    /// Compares the polled folders' files with their last snapshot, and looks for missing folders.
    private func poll() {
        guard !isStopped else { return }
        let now = clock.now()
        for (path, watched) in paths {
            guard let previous = watched.snapshot, watched.isFolder else { continue }
            guard let current = Self.snapshot(of: path) else { continue }
            for (name, signature) in current where previous[name] != signature {
                note(previous[name] == nil ? .created : .modified, of: name, in: path, at: now)
            }
            for name in previous.keys where current[name] == nil {
                note(.deleted, of: name, in: path, at: now)
            }
            paths[path]?.snapshot = current
        }
        if !missing.isEmpty { resolve() }
    }

    /// The regular files of a folder by name, or `nil` when it cannot be listed.
    private static func snapshot(of folder: String) -> [String: FileSignature]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        var files: [String: FileSignature] = [:]
        for name in names {
            if let signature = FileSignature(path: folder + "/" + name) { files[name] = signature }
        }
        return files
    }

    /// Adds a change of a file to the burst of each automation watching its folder whose
    /// pattern matches its name.
    private func note(_ change: FileChange, of name: String, in folder: String, at time: Date) {
        for (key, automation) in automations where automation.watchedFolder?.path == folder {
            guard let watch = automation.watch, watch.matches(fileName: name) else { continue }
            let burstKey = BurstKey(automation: key, name: name)
            if bursts[burstKey] != nil {
                bursts[burstKey]?.apply(change, at: time)
            } else {
                guard change.isChange else { continue }
                bursts[burstKey] = FileBurst(change, at: time)
            }
            scheduleCheck(burstKey, debounce: watch.debounce)
        }
    }

    /// Schedules a check of a burst's end, unless one is scheduled by then (the end moves
    /// later with each event, and earlier when a writer closes the file).
    private func scheduleCheck(_ key: BurstKey, debounce: Duration) {
        guard let burst = bursts[key] else { return }
        let end = burst.end(debounce: debounce)
        if let scheduled = burst.checkAt, scheduled <= end { return }
        bursts[key]?.checkAt = end
        Task.detached { [weak self, clock, queue] in
            try? await clock.sleep(until: end)
            guard let self else { return }
            queue.async { self.check(key, scheduledAt: end) }
        }
    }

    /// Ends a burst whose quiet time is over, reporting its event; otherwise checks again at its new end.
    private func check(_ key: BurstKey, scheduledAt: Date) {
        guard !isStopped, let burst = bursts[key] else { return }
        if burst.checkAt == scheduledAt { bursts[key]?.checkAt = nil }
        guard let automation = automations[key.automation], let watch = automation.watch, let folder = automation.watchedFolder else {
            bursts[key] = nil
            return
        }
        let end = burst.end(debounce: watch.debounce)
        guard clock.now() >= end else {
            scheduleCheck(key, debounce: watch.debounce)
            return
        }
        bursts[key] = nil
        guard let event = burst.event, watch.events.contains(event), watch.matches(fileName: key.name) else { return }
        onTrigger(FileTrigger(automation: automation, file: folder.appendingPathComponent(key.name), event: event))
    }
}
