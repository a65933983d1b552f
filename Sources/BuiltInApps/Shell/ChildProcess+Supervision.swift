import Clockwork
import Foundation
import Glibc
import ProcessSpawning

extension ChildProcess.Running {
    /// Feeds standard input, reads standard output and standard error as they come, watches
    /// the cancellation pipe and the clock's alarm, ends the group when asked, and waits for
    /// the leader: the whole life of the program, on a thread of its own (it blocks in `poll`).
    ///
    /// - Parameters:
    ///   - child: The program's settings (input, timeout, limits, clock).
    ///   - started: When it was started, by the child's clock.
    /// - Returns: What it produced.
    func supervise(_ child: ChildProcess, started: Date) -> ChildProcess.Outcome {
        // A write to a closed standard input returns EPIPE instead of killing this process.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)

        let clock = child.clock
        var state = State(child: child, running: self)
        let deadline = child.timeout.map { started.adding($0) }
        // Set when the leader has exited: output is read until then, for a program that
        // escaped the group and still holds the pipes.
        var drainEnd: Date?
        while state.stop == nil {
            if let drainEnd, !state.hasOpenOutput || clock.now() >= drainEnd { break }
            alarm.set(drainEnd ?? deadline)
            if state.poll(watchingLeader: drainEnd == nil, watchingCancellation: true) {
                state.stop = .cancelled
            } else if let deadline, clock.now() >= deadline, drainEnd == nil {
                state.stop = .timedOut
            }
            guard state.stop == nil else { break }
            state.transfer()
            if drainEnd == nil && hasLeaderEnded() {
                drainEnd = clock.now().adding(ChildProcess.drainPeriod)
                // Whatever the leader left running in its group ends with it.
                killpg(processID, SIGKILL)
            }
        }
        if state.stop != nil && drainEnd == nil {
            endGroup(state: &state)
        }
        alarm.close()
        let termination = reapLeader()
        let duration = clock.elapsed(since: started)
        state.closeAll()
        if processDescriptor >= 0 { close(processDescriptor) }
        cancellation.close()
        return ChildProcess.Outcome(
            processID: processID, termination: termination, stop: state.stop, standardOutput: state.output,
            standardError: state.errorTail, duration: duration)
    }

    /// `SIGTERM` to the group, `SIGKILL` when the child's clock passes the grace period (or
    /// as soon as the leader exits); output read meanwhile is kept within the limits.
    private func endGroup(state: inout State) {
        let clock = state.child.clock
        killpg(processID, SIGTERM)
        let termEnd = clock.now().adding(ChildProcess.terminationGracePeriod)
        alarm.set(termEnd)
        while clock.now() < termEnd && !hasLeaderEnded() {
            _ = state.poll(watchingLeader: true, watchingCancellation: false)
            state.transfer()
        }
        // The leader is not reaped yet, so its group's number still names this group.
        killpg(processID, SIGKILL)
    }

    /// Whether the leader has exited, without reaping it (so its group id stays reserved).
    private func hasLeaderEnded() -> Bool {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(processID), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return true }
        return info._sifields._sigchld.si_pid == processID
    }

    /// Ends what is left of the group, waits for the leader and decodes its status.
    private func reapLeader() -> ChildProcess.Termination {
        let status = ChildGroups.endAndReap(processID)
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }
}

extension ChildProcess.Running {
    /// The supervisor's buffers and open descriptors.
    struct State {
        let child: ChildProcess
        let running: ChildProcess.Running
        var input: [UInt8]
        var inputOffset = 0
        var standardInput: Int32
        var standardOutput: Int32
        var standardError: Int32
        var output: [UInt8] = []
        var errorTail: [UInt8] = []
        var stop: ChildProcess.Stop?
        private var buffer = [UInt8](repeating: 0, count: 65_536)

        init(child: ChildProcess, running: ChildProcess.Running) {
            self.child = child
            self.running = running
            input = child.input ?? []
            standardInput = running.standardInput
            standardOutput = running.standardOutput
            standardError = running.standardError
            if standardInput >= 0 && input.isEmpty { closeInput() }
        }

        var hasOpenOutput: Bool { standardOutput >= 0 || standardError >= 0 }

        /// Waits until a pipe is ready, the leader exits, the task is cancelled (when watched)
        /// or the alarm rings; says whether the task was cancelled.
        ///
        /// Without a pidfd (a kernel before 5.3) the leader's exit is no event, and the wait
        /// also ends after 10 ms of `poll`'s own timeout, for the caller to look again: a
        /// check of the process, not a measure of time, which the clock alone keeps.
        mutating func poll(watchingLeader: Bool, watchingCancellation: Bool) -> Bool {
            var descriptors = [
                pollfd(fd: watchingCancellation ? running.cancellation.readEnd : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: running.alarm.readEnd, events: Int16(POLLIN), revents: 0)
            ]
            if watchingLeader && running.processDescriptor >= 0 {
                descriptors.append(pollfd(fd: running.processDescriptor, events: Int16(POLLIN), revents: 0))
            }
            for descriptor in [standardOutput, standardError] where descriptor >= 0 {
                descriptors.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0))
            }
            if standardInput >= 0 { descriptors.append(pollfd(fd: standardInput, events: Int16(POLLOUT), revents: 0)) }
            let milliseconds: Int32 = watchingLeader && running.processDescriptor < 0 ? 10 : -1
            let ready = Glibc.poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if ready > 0 && descriptors[1].revents != 0 { running.alarm.reset() }
            return ready > 0 && descriptors[0].revents != 0
        }

        /// Moves what is ready: input into the program, output and errors out of it.
        mutating func transfer() {
            if standardInput >= 0 {
                let written = input.withUnsafeBytes { bytes in
                    write(standardInput, bytes.baseAddress! + inputOffset, bytes.count - inputOffset)
                }
                if written > 0 { inputOffset += written }
                if (written < 0 && errno != EAGAIN && errno != EINTR) || inputOffset == input.count { closeInput() }
            }
            if standardOutput >= 0 {
                let (bytes, ended) = readAvailable(from: standardOutput)
                if output.count + bytes.count > child.outputLimit {
                    output.append(contentsOf: bytes.prefix(child.outputLimit - output.count))
                    if stop == nil { stop = .outputTooLarge }
                } else {
                    output.append(contentsOf: bytes)
                }
                if ended { closeOutput() }
            }
            if standardError >= 0 {
                let (bytes, ended) = readAvailable(from: standardError)
                errorTail.append(contentsOf: bytes)
                let excess = errorTail.count - child.errorTailLimit
                if excess > 0 { errorTail.removeFirst(excess) }
                if ended { closeError() }
            }
        }

        /// Reads a non-blocking pipe until it is empty, and says whether it reached its end.
        private mutating func readAvailable(from descriptor: Int32) -> (bytes: [UInt8], ended: Bool) {
            var bytes: [UInt8] = []
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
                if count > 0 {
                    bytes.append(contentsOf: buffer[0..<count])
                    if count < buffer.count { return (bytes, false) }
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    return (bytes, true)
                } else if errno == EAGAIN {
                    return (bytes, false)
                }
            }
        }

        private mutating func closeOutput() {
            close(standardOutput)
            standardOutput = -1
        }

        private mutating func closeError() {
            close(standardError)
            standardError = -1
        }

        private mutating func closeInput() {
            close(standardInput)
            standardInput = -1
        }

        mutating func closeAll() {
            for descriptor in [standardInput, standardOutput, standardError] where descriptor >= 0 { close(descriptor) }
            standardInput = -1
            standardOutput = -1
            standardError = -1
        }
    }
}
