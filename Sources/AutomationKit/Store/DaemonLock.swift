import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A daemon's proof of life: an exclusive `flock` on `$SHORTCUTS_HOME/daemons/ID.lock`,
/// held for as long as the daemon runs.
///
/// The kernel releases the lock when the process dies, however it dies (`kill -9`
/// included), so another daemon can tell a dead owner of running claims from a live one
/// without guessing from timestamps or pids: it tries to take the owner's lock without
/// waiting. This needs a file system with `flock` shared by every daemon (a local disk, not
/// one shared by several machines).
final class DaemonLock: @unchecked Sendable {
    let url: URL
    private var descriptor: Int32

    /// Creates and locks the lock file of a daemon.
    ///
    /// - Throws: ``AutomationError/lock(_:)`` when the file cannot be created or locked.
    init(folder: URL, daemonID: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        url = folder.appendingPathComponent(daemonID + ".lock")
        descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw AutomationError.lock("cannot create \(url.path): \(String(cString: strerror(errno)))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw AutomationError.lock("cannot lock \(url.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Unlocks and deletes the lock file (the daemon is stopping cleanly).
    func release() {
        guard descriptor >= 0 else { return }
        try? FileManager.default.removeItem(at: url)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }

    /// Whether the daemon that owns a lock file is dead: its file is missing, or can be locked.
    ///
    /// A dead owner's file is deleted. A daemon must never ask about itself (a second
    /// `flock` of its own file through another descriptor would fail and report it alive,
    /// which is harmless but pointless).
    static func isDead(daemonID: String, folder: URL) -> Bool {
        let path = folder.appendingPathComponent(daemonID + ".lock").path
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        unlink(path)
        return true
    }
}
