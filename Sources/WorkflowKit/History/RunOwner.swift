import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process that records a run: its pid and the time it started, which together name one
/// process for the life of the machine (a pid alone may be reused by a later process).
///
/// A manual run stores its owner; the next process that opens the run history asks whether
/// that owner still lives and, when it does not (`kill -9`, a crash), settles the run as
/// ``RunHistory/Status/interrupted``.
///
/// ```swift
/// let owner = RunOwner.current
/// print(owner.pid, owner.isAlive)   // 4242 true
/// ```
struct RunOwner: Sendable, Equatable {
    /// The process id.
    var pid: Int32
    /// When the process started, in clock ticks after boot (field 22 of `/proc/PID/stat`);
    /// 0 where `/proc` is not available, and then only the pid is compared.
    var startTime: Int64

    /// This machine's name, recorded with each manual run: a run's process is only looked for
    /// on the host that recorded it.
    static let host = ProcessInfo.processInfo.hostName

    /// This process.
    static let current = RunOwner(pid: getpid(), startTime: startTime(of: getpid()) ?? 0)

    /// Whether the process still runs: its pid exists and, where it can be read, started at
    /// the recorded time.
    var isAlive: Bool {
        if pid == getpid() { return startTime == Self.current.startTime }
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard startTime != 0, let now = Self.startTime(of: pid) else { return true }
        return now == startTime
    }

    /// The start time of a process from `/proc/PID/stat`, or `nil` when it cannot be read.
    static func startTime(of pid: Int32) -> Int64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let closing = stat.lastIndex(of: ")")
        else { return nil }
        // After the command name (which may hold spaces and parentheses): state is field 3,
        // so the start time (field 22) is the 20th field after it.
        let fields = stat[stat.index(after: closing)...].split(separator: " ")
        guard fields.count > 19 else { return nil }
        return Int64(fields[19])
    }
}
