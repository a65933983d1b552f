import ProcessGroupGuard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The process groups of the programs this process started (shell steps, extensions, MCP
/// servers), which end when this process ends, however it ends.
///
/// Each program starts as the leader of a process group of its own, so that what it starts
/// (`sleep 30 &`, a pipeline) can be ended with it. While the engine runs, its supervisors
/// end each group when its leader ends, on a timeout or on cancellation. For the time after
/// the engine, a small guard process is started with the first group: it holds one end of a
/// socket pair whose other end only the engine holds, and when the engine ends — it returns,
/// it gets `SIGTERM`, it is killed with `SIGKILL` — the socket reaches its end and the guard
/// sends `SIGKILL` to every group still adopted, then exits. A program meant to outlive the
/// engine starts in a session of its own (`setsid`).
///
/// ```swift
/// ChildGroups.adopt(pid)       // right after starting a group's leader
/// // … the leader ends, its group is ended …
/// ChildGroups.release(pid)     // before the leader is reaped, while its number is reserved
/// ```
public enum ChildGroups {
    /// Tells the guard to end the group when this process ends; starts the guard on first
    /// use. Best effort: when the guard cannot be started, the group is still ended by its
    /// supervisor while this process runs.
    ///
    /// - Parameter group: The group's number (its leader's pid).
    /// - Returns: Whether the guard took it.
    @discardableResult
    public static func adopt(_ group: pid_t) -> Bool {
        guard prepare() else { return false }
        return process_group_guard_adopt(group) == 0
    }

    /// Starts the guard if it does not run yet: a program's starter calls it before it starts
    /// the program, so that only one message lies between the program's start and its
    /// adoption (the guard's own start, a `fork` of this process, never does).
    ///
    /// - Returns: Whether the guard runs.
    @discardableResult
    public static func prepare() -> Bool {
        started
    }

    /// Tells the guard to forget a group that has ended, before its leader is reaped (so that
    /// its number cannot name another group meanwhile).
    ///
    /// - Parameter group: A group given to ``adopt(_:)``.
    public static func release(_ group: pid_t) {
        _ = process_group_guard_release(group)
    }

    /// Waits until a group's leader exits, then ends the group (``endAndReap(_:)``).
    ///
    /// - Parameter leader: The leader's pid, a child of this process.
    /// - Returns: The leader's wait status (as `waitpid` gives it).
    public static func waitForLeader(_ leader: pid_t) -> Int32 {
        var info = siginfo_t()
        // WNOWAIT: the leader stays unreaped, so its number still names its group.
        while waitid(P_PID, id_t(leader), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        return endAndReap(leader)
    }

    /// Ends what a leader that has exited (and is not reaped yet) left in its group, forgets
    /// the group, then reaps the leader.
    ///
    /// - Parameter leader: The leader's pid, a child of this process.
    /// - Returns: The leader's wait status (as `waitpid` gives it).
    public static func endAndReap(_ leader: pid_t) -> Int32 {
        killpg(leader, SIGKILL)
        release(leader)
        var status: Int32 = 0
        while waitpid(leader, &status, 0) < 0 {
            guard errno == EINTR else { return SIGKILL }
        }
        return status
    }

    /// Makes a normal exit wait (up to 2 s) for the guard to end what is left and exit, after
    /// every exit handler registered later has run. A program calls it first thing, so that
    /// its other handlers (which stop their programs gently) come before the guard's.
    public static func waitForGuardAtExit() {
        process_group_guard_wait_at_exit()
    }

    /// Whether the guard runs; started once, on first use.
    private static let started: Bool = process_group_guard_start() == 0
}
