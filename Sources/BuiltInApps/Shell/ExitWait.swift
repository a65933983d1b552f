import Clockwork
import Foundation
import Glibc
import ProcessSpawning

/// Waits for a child process to exit, or for a clock to reach a deadline.
///
/// The exit is an event (the process's pidfd becomes readable) and the deadline is the
/// clock's ``DeadlineAlarm``, so a process that exits by itself is seen at once whatever the
/// clock does, and a test's manual clock decides when the deadline comes.
///
/// ```swift
/// let status = try ExitWait.status(of: pid, until: clock.now().adding(.seconds(5)), clock: clock)
/// if status == nil { kill(pid, SIGKILL) }   // still running at the deadline
/// ```
enum ExitWait {
    /// Reaps the child when it exits before `deadline` and returns its wait status (as
    /// `waitpid` gives it); returns `nil`, leaving it running and unreaped, at the deadline.
    ///
    /// Without a pidfd (a kernel before 5.3) the exit is no event, and the process is looked
    /// at again after each 5 ms of `poll`'s own timeout.
    ///
    /// - Throws: ``ChildProcess/LaunchError`` when no pipe can be made for the alarm.
    static func status(of pid: pid_t, until deadline: Date, clock: any EngineClock) throws -> Int32? {
        let alarm = try DeadlineAlarm(clock: clock)
        defer { alarm.close() }
        alarm.set(deadline)
        let exited = SpawnSetup.openProcessDescriptor(pid)
        defer { if exited >= 0 { close(exited) } }
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno != EINTR) { return status }
            guard clock.now() < deadline else { return nil }
            var descriptors = [
                pollfd(fd: exited, events: Int16(POLLIN), revents: 0), pollfd(fd: alarm.readEnd, events: Int16(POLLIN), revents: 0)
            ]
            if Glibc.poll(&descriptors, nfds_t(descriptors.count), exited >= 0 ? -1 : 5) > 0 && descriptors[1].revents != 0 {
                alarm.reset()
            }
        }
    }
}
