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
        // Locked under a name other daemons do not look at, then linked into place (which fails
        // if the name is taken): another daemon never finds this lock file unlocked, and so never
        // takes a starting daemon for a dead one.
        let unnamed = folder.appendingPathComponent(daemonID + ".locking")
        descriptor = open(unnamed.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw AutomationError.lock("cannot create \(unnamed.path): \(String(cString: strerror(errno)))") }
        defer { unlink(unnamed.path) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, link(unnamed.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            descriptor = -1  // so that deinit leaves the file, which may be another daemon's, alone
            throw AutomationError.lock("cannot lock \(url.path): \(reason)")
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

    /// Removes the lock files of stopped daemons (those whose `flock` is free) and tells which
    /// other daemons are alive.
    ///
    /// - Parameters:
    ///   - folder: The `daemons` folder.
    ///   - daemonID: The asking daemon, left alone.
    /// - Returns: How many files were removed, and the identifiers of the live daemons.
    static func sweep(folder: URL, except daemonID: String) -> (removed: Int, live: [String]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var removed = 0
        var live: [String] = []
        for name in names.sorted() where name.hasSuffix(".lock") {
            let id = String(name.dropLast(".lock".count))
            guard id != daemonID else { continue }
            if isDead(daemonID: id, folder: folder) { removed += 1 } else { live.append(id) }
        }
        return (removed, live)
    }
}
