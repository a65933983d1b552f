import Clockwork
import Foundation
import ProcessSpawning
import ShortcutsSystemTestSupport
import Testing

@testable import BuiltInApps

/// The process runner: pipes read together, input fed, exit statuses, and the whole group
/// ended on a timeout, a cancellation, too much output and the leader's exit.
///
/// Timeouts, the grace period and the drain period pass when a test advances a manual clock;
/// a program that exits by itself ends the run without the clock being moved.
@Suite("Child process")
struct ChildProcessTests {
    private func shell(_ script: String, _ arguments: String..., clock: any EngineClock = .system) -> ChildProcess {
        ChildProcess(executable: "/bin/sh", arguments: ["-c", script, "sh"] + arguments, clock: clock)
    }

    /// A file the script writes its process numbers to, and a wait for the line that says it
    /// got that far: the event the test advances the clock after.
    private struct Report {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path

        /// The numbers once the file holds `count` of them.
        func numbers(count: Int) async throws -> [pid_t] {
            var numbers: [pid_t] = []
            try await eventually(watching: [.file(URL(fileURLWithPath: path))]) {
                let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                numbers = text.split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
                return numbers.count >= count && text.hasSuffix("\n")
            }
            try #require(numbers.count >= count, "the script never wrote its process numbers")
            return numbers
        }

        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Whether two durations are the same to within a microsecond: a manual clock's dates are
    /// `Double`s of seconds since 2001.
    private static func same(_ left: Duration, _ right: Duration) -> Bool {
        abs((left - right).timeInterval) < 1e-6
    }

    @Test func readsOutputFeedsInputAndReportsTheStatus() async throws {
        // A program that exits by itself ends the run while the clock stands still; its
        // duration is the clock's.
        let clock = ManualClock()
        var child = shell(#"printf '%s|' "$1"; cat; echo problem >&2; exit 3"#, "a b", clock: clock)
        child.input = Array("from stdin".utf8)
        let outcome = try await child.run()
        #expect(outcome.termination == .exited(3))
        #expect(outcome.stop == nil)
        #expect(outcome.standardOutputText == "a b|from stdin")
        #expect(outcome.standardErrorText == "problem\n")
        #expect(outcome.duration == .zero)
    }

    @Test func theProgramInheritsNoDescriptorBeyondItsStandardOnes() async throws {
        // A descriptor opened without close-on-exec, as a library on another thread may do,
        // at a number the shell does not use itself.
        let opened = open("/dev/null", O_RDONLY)
        let leaked = fcntl(opened, F_DUPFD, 200)
        close(opened)
        try #require(leaked >= 200)
        defer { close(leaked) }
        let outcome = try await shell("[ -e /proc/self/fd/$1 ] && echo inherited || echo closed; [ -e /proc/self/fd/2 ] && echo kept", "\(leaked)")
            .run()
        #expect(outcome.termination == .exited(0))
        #expect(outcome.standardOutputText == "closed\nkept\n")
    }

    @Test func largeOutputAndLargeErrorsAreReadTogether() async throws {
        // 4 MiB on each pipe, interleaved: reading one pipe to its end first would block.
        var child = shell("head -c 4194304 /dev/zero | tr '\\0' e >&2 & head -c 4194304 /dev/zero | tr '\\0' o; wait", clock: ManualClock())
        child.timeout = .seconds(20)
        let outcome = try await child.run()
        #expect(outcome.termination == .exited(0))
        #expect(outcome.standardOutput.count == 4_194_304)
        #expect(outcome.standardError.count == child.errorTailLimit)
        #expect(outcome.standardError.allSatisfy { $0 == UInt8(ascii: "e") })
    }

    @Test func largeInputIsWrittenWhileOutputIsRead() async throws {
        var child = ChildProcess(executable: "/bin/cat")
        child.input = [UInt8](repeating: UInt8(ascii: "x"), count: 3_000_000)
        let outcome = try await child.run()
        #expect(outcome.standardOutput.count == 3_000_000)
    }

    @Test func aTimeoutEndsTheWholeGroupAndLeavesNothingRunning() async throws {
        let clock = ManualClock()
        let start = clock.now()
        let report = Report()
        defer { report.remove() }
        var child = shell("sleep 30 & echo $! > \"$1\"; echo $!; wait", report.path, clock: clock)
        child.timeout = .milliseconds(500)
        let run = Task { try await child.run() }
        let sleeper = try await report.numbers(count: 1)[0]
        try await clock.waitForSleeper(deadline: start.adding(.milliseconds(500)))
        #expect(ProcessGroupProbe.isRunning(sleeper))
        clock.advance(by: .milliseconds(500))
        let outcome = try await run.value
        #expect(outcome.stop == .timedOut)
        #expect(outcome.termination == .signaled(SIGTERM))
        #expect(Self.same(outcome.duration, .milliseconds(500)))
        #expect(pid_t(outcome.standardOutputText.trimmingCharacters(in: .whitespacesAndNewlines)) == sleeper)
        let left = await ProcessGroupProbe.waitUntilGone(outcome.processID)
        #expect(left.isEmpty, "still in the group: \(left)")
        #expect(!ProcessGroupProbe.isRunning(sleeper))
    }

    @Test func aProcessThatIgnoresTerminationIsKilledWhenTheClockPassesTheGracePeriod() async throws {
        let clock = ManualClock()
        let start = clock.now()
        let report = Report()
        defer { report.remove() }
        var child = shell("trap '' TERM; sleep 30 & echo $$ $! > \"$1\"; while :; do sleep 1; done", report.path, clock: clock)
        child.timeout = .milliseconds(300)
        let run = Task { try await child.run() }
        let numbers = try await report.numbers(count: 2)
        try await clock.waitForSleeper(deadline: start.adding(.milliseconds(300)))
        clock.advance(by: .milliseconds(300))
        // SIGTERM is sent and ignored; SIGKILL waits for the clock to pass the grace period.
        let killAt = start.adding(.milliseconds(300) + ChildProcess.terminationGracePeriod)
        try await clock.waitForSleeper(deadline: killAt)
        #expect(ProcessGroupProbe.isRunning(numbers[0]) && ProcessGroupProbe.isRunning(numbers[1]))
        clock.advance(to: killAt.addingTimeInterval(-0.001))
        #expect(ProcessGroupProbe.isRunning(numbers[0]), "killed before the grace period passed")
        let passed = try #require(clock.advanceToNextDeadline())
        #expect(abs(passed.timeIntervalSince(killAt)) < 1e-6)
        let outcome = try await run.value
        #expect(outcome.stop == .timedOut)
        #expect(outcome.termination == .signaled(SIGKILL))
        #expect(Self.same(outcome.duration, .milliseconds(300) + ChildProcess.terminationGracePeriod))
        let left = await ProcessGroupProbe.waitUntilGone(outcome.processID)
        #expect(left.isEmpty, "still in the group: \(left)")
    }

    @Test func cancellingTheTaskEndsTheGroup() async throws {
        let report = Report()
        defer { report.remove() }
        let child = shell("sleep 30 & echo $! > \"$1\"; wait", report.path, clock: ManualClock())
        let task = Task { try await child.run() }
        _ = try await report.numbers(count: 1)
        task.cancel()
        let outcome = try await task.value
        #expect(outcome.stop == .cancelled)
        let left = await ProcessGroupProbe.waitUntilGone(outcome.processID)
        #expect(left.isEmpty, "still in the group: \(left)")
    }

    @Test func outputOverTheLimitStopsTheProgram() async throws {
        var child = ChildProcess(executable: "/usr/bin/yes")
        child.outputLimit = 100_000
        child.timeout = .seconds(10)
        let outcome = try await child.run()
        #expect(outcome.stop == .outputTooLarge)
        #expect(outcome.standardOutput.count == 100_000)
        #expect(await ProcessGroupProbe.waitUntilGone(outcome.processID).isEmpty)
    }

    @Test func whatTheLeaderLeavesRunningEndsWithIt() async throws {
        let outcome = try await shell("sleep 30 >/dev/null 2>&1 & echo $!").run()
        #expect(outcome.termination == .exited(0))
        let sleeper = try #require(pid_t(outcome.standardOutputText.trimmingCharacters(in: .whitespacesAndNewlines)))
        let left = await ProcessGroupProbe.waitUntilGone(outcome.processID)
        #expect(left.isEmpty && !ProcessGroupProbe.isRunning(sleeper))
    }

    @Test(.enabled(if: SystemComponents.available("/usr/bin/setsid"), "needs setsid(1)"))
    func aProgramThatLeftTheGroupDoesNotHoldTheRunOpen() async throws {
        // It escapes the group with setsid and keeps standard output open for 30 seconds; once
        // the leader has exited, output is read until the clock passes the drain period.
        let clock = ManualClock()
        let start = clock.now()
        let run = Task { try await shell("setsid sh -c 'echo $$; exec sleep 30' & sleep 0.2; echo done", clock: clock).run() }
        try await clock.waitForSleeper(deadline: start.adding(ChildProcess.drainPeriod))
        clock.advance(by: ChildProcess.drainPeriod)
        let outcome = try await run.value
        #expect(Self.same(outcome.duration, ChildProcess.drainPeriod))
        let lines = outcome.standardOutputText.split(separator: "\n")
        #expect(lines.last == "done")
        if let escaped = lines.first.flatMap({ pid_t($0) }) { kill(escaped, SIGKILL) }
    }

    @Test func startsInTheWorkingDirectoryWithTheEnvironmentGiven() async throws {
        var child = shell("pwd; echo \"$GREETING\"")
        child.workingDirectory = "/tmp"
        child.environment = ["GREETING": "hello there", "PATH": "/usr/bin:/bin"]
        #expect(try await child.run().standardOutputText == "/tmp\nhello there\n")
        child.workingDirectory = "/no/such/folder"
        await #expect(throws: ChildProcess.LaunchError.workingDirectory("/no/such/folder")) { try await child.run() }
    }

    @Test func launchErrorsNameTheProgram() async throws {
        await #expect(throws: ChildProcess.LaunchError.notFound("/no/such/program")) {
            try await ChildProcess(executable: "/no/such/program").run()
        }
        let plainFile = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-program-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: plainFile, contents: Data("echo hi\n".utf8), attributes: [.posixPermissions: 0o644]))
        defer { try? FileManager.default.removeItem(atPath: plainFile) }
        await #expect(throws: ChildProcess.LaunchError.permissionDenied(plainFile)) {
            try await ChildProcess(executable: plainFile).run()
        }
    }

    @Test func namesAreLookedUpInPath() {
        #expect(SpawnSetup.lookUp("sh", in: "/no/such:/bin") == "/bin/sh")
        #expect(SpawnSetup.lookUp("no-such-program-here", in: "/usr/bin:/bin") == nil)
        #expect(SpawnSetup.lookUp("./relative", in: "/bin") == "./relative")
        // A folder or a file that is not executable does not count.
        #expect(SpawnSetup.lookUp("passwd", in: "/etc") == nil)
        #expect(SpawnSetup.lookUp("bin", in: "/") == nil)
    }

    @Test func manyRunsAtOnceEachGetTheirOwnOutput() async throws {
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<16 {
                group.addTask { (index, try await self.shell("echo $1", String(index)).run().standardOutputText) }
            }
            for try await (index, output) in group { #expect(output == "\(index)\n") }
        }
    }
}
