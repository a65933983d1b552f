import Foundation

/// What `/proc` says about a process group: its members, and whether they are gone.
///
/// ```swift
/// let left = await ProcessGroupProbe.waitUntilGone(outcome.processID)
/// #expect(left.isEmpty, "still in the group: \(left)")
/// ```
public enum ProcessGroupProbe {
    /// The processes of a group, with their state letter (`S`, `R`, `Z`…).
    public static func members(of group: pid_t) -> [(pid: pid_t, state: Character)] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (comm) ": state, parent, group.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, pid_t(fields[2]) == group, let state = fields[0].first else { return nil }
            return (pid, state)
        }
    }

    /// Waits until every process of the group has ended (a zombie has ended: only its parent's
    /// wait is left), woken by each member's exit; returns the members still running when the
    /// patience runs out.
    public static func waitUntilGone(_ group: pid_t, patience: Double = 120) async -> [(pid: pid_t, state: Character)] {
        func running() -> [(pid: pid_t, state: Character)] { members(of: group).filter { $0.state != "Z" } }
        _ = await waitUntilNoneRuns(patience: patience) { running().map(\.pid) }
        return running()
    }

    /// Waits until the processes `running` lists are none, woken by each one's exit; whether
    /// none runs by the time the patience ran out.
    ///
    /// - Parameter running: The processes that run now, asked again after each exit (one may
    ///   start another before it ends: each round watches the processes of now).
    public static func waitUntilNoneRuns(patience: Double = 120, _ running: () -> [pid_t]) async -> Bool {
        while true {
            let now = running()
            guard !now.isEmpty else { return true }
            let changed = (try? await eventually(watching: now.map { .exit($0) }, patience: patience) { running() != now }) ?? false
            if !changed { return false }
        }
    }

    /// Whether a process exists and is not a zombie.
    public static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return false
        }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }
}
