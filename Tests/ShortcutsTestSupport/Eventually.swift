import Foundation
import ProcessSpawning
import Synchronization

/// Something whose change can make a condition true, watched by ``eventually(watching:patience:_:)``
/// without polling: a folder's files (inotify), a process's end (its pidfd), or a
/// ``ChangeNotice`` fired by code in the test's own process.
public enum ChangeSource: Sendable {
    /// A file created, written, closed, moved or removed in this folder (not in its subfolders).
    case folder(URL)
    /// This process ended.
    case exit(pid_t)
    /// The notice was posted.
    case notice(ChangeNotice)

    /// The folder a file is in: a change of the file, or its creation, is a change there.
    public static func file(_ url: URL) -> ChangeSource { .folder(url.deletingLastPathComponent()) }
}

/// A change that code in the test's process announces (a log line appended, a call recorded),
/// for ``eventually(watching:patience:_:)`` to wake on.
///
/// ```swift
/// let appended = ChangeNotice()
/// lines.append(line); appended.post()
/// ```
public final class ChangeNotice: Sendable {
    private let subscribers = Mutex<[Int32: Int32]>([:])

    public init() {}

    /// Wakes every wait that watches this notice (a wait that starts later sees the change in
    /// its first check).
    public func post() {
        let writers = subscribers.withLock { Array($0.values) }
        var byte: UInt8 = 1
        for writer in writers { _ = write(writer, &byte, 1) }
    }

    /// A descriptor that becomes readable when the notice is posted, until ``unsubscribe(_:)``.
    fileprivate func subscribe() -> Int32? {
        guard let pipe = SpawnSetup.closeOnExecPipe() else { return nil }
        for end in [pipe.read, pipe.write] { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        subscribers.withLock { $0[pipe.read] = pipe.write }
        return pipe.read
    }

    fileprivate func unsubscribe(_ reader: Int32) {
        if let writer = subscribers.withLock({ $0.removeValue(forKey: reader) }) { close(writer) }
        close(reader)
    }
}

/// Waits until `condition` holds, checking it once and then again only after one of `sources`
/// changed: an event wait, not a poll. The patience is a guard for a broken test, never part of
/// what a passing test measures: the wait ends as soon as the event comes.
///
/// ```swift
/// let ran = try await eventually(watching: [.folder(shortcuts.home)]) {
///     try await shortcuts.run(["runs", "list"]).output.contains("succeeded")
/// }
/// #expect(ran)
/// ```
///
/// - Parameters:
///   - sources: What can make the condition true; at least one.
///   - patience: Seconds after which a condition that never held counts as failed.
/// - Returns: Whether the condition held before the patience ran out. A caller whose own checks
///   follow may ignore it.
@discardableResult
public func eventually(
    watching sources: [ChangeSource], patience: Double = 120, _ condition: () async throws -> Bool
) async throws -> Bool {
    precondition(!sources.isEmpty, "eventually needs something to watch")
    let watch = try ChangeWatch(sources)
    defer { watch.close() }
    let limit = ContinuousClock.now + .seconds(patience)
    while true {
        if try await condition() { return true }
        let left = ContinuousClock.now.duration(to: limit)
        guard left > .zero else { return false }
        // Blocks in poll(2) on a thread of its own, so the cooperative pool's threads stay free.
        let woke = try await detached { watch.next(within: left) }
        if !woke { return try await condition() }
    }
}

/// The same wait for a caller that must not leave its thread (a test that holds a lock, a
/// synchronous helper).
@discardableResult
public func eventuallyBlocking(watching sources: [ChangeSource], patience: Double = 120, _ condition: () throws -> Bool) throws -> Bool {
    precondition(!sources.isEmpty, "eventually needs something to watch")
    let watch = try ChangeWatch(sources)
    defer { watch.close() }
    let limit = ContinuousClock.now + .seconds(patience)
    while true {
        if try condition() { return true }
        let left = ContinuousClock.now.duration(to: limit)
        guard left > .zero else { return false }
        if !watch.next(within: left) { return try condition() }
    }
}

/// The descriptors of one wait: an inotify instance for the folders, a pidfd per process and a
/// pipe per notice, all read by one `poll(2)`.
final class ChangeWatch: @unchecked Sendable {
    /// A wait could not be set up (no inotify instance, a folder that does not exist).
    public struct SetupFailed: Error, CustomStringConvertible {
        public var description: String
    }

    private var descriptors: [(descriptor: Int32, kind: Kind)] = []
    private enum Kind {
        case folders, exit
        case notice(ChangeNotice)
    }

    init(_ sources: [ChangeSource]) throws {
        var inotify: Int32?
        do {
            for source in sources {
                switch source {
                case .folder(let folder):
                    if inotify == nil {
                        let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
                        guard descriptor >= 0 else { throw SetupFailed(description: "no inotify instance: \(String(cString: strerror(errno)))") }
                        inotify = descriptor
                        descriptors.append((descriptor, .folders))
                    }
                    let mask = IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    guard inotify_add_watch(inotify!, folder.path, UInt32(mask)) >= 0 else {
                        throw SetupFailed(description: "cannot watch \(folder.path): \(String(cString: strerror(errno)))")
                    }
                case .exit(let pid):
                    let descriptor = SpawnSetup.openProcessDescriptor(pid)
                    // A process that is already gone (or a kernel without pidfds) changes no more.
                    if descriptor >= 0 { descriptors.append((descriptor, .exit)) }
                case .notice(let notice):
                    if let reader = notice.subscribe() { descriptors.append((reader, .notice(notice))) }
                }
            }
        } catch {
            close()
            throw error
        }
    }

    /// Blocks until a source changes or `duration` passes, and takes what it read.
    ///
    /// - Returns: Whether something changed.
    func next(within duration: Duration) -> Bool {
        var polled = descriptors.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        let (seconds, attoseconds) = duration.components
        let milliseconds = Int32(clamping: seconds * 1_000 + attoseconds / 1_000_000_000_000_000 + 1)
        let ready = poll(&polled, nfds_t(polled.count), milliseconds)
        guard ready > 0 else { return false }
        var ended: [Int] = []
        for (index, entry) in polled.enumerated() where entry.revents != 0 {
            switch descriptors[index].kind {
            case .folders, .notice: drain(entry.fd)
            case .exit: ended.append(index)
            }
        }
        // An ended process stays readable: it is one change, then no source.
        for index in ended.reversed() {
            Glibc.close(descriptors[index].descriptor)
            descriptors.remove(at: index)
        }
        return true
    }

    func close() {
        for (descriptor, kind) in descriptors {
            if case .notice(let notice) = kind { notice.unsubscribe(descriptor) } else { Glibc.close(descriptor) }
        }
        descriptors = []
    }

    private func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
