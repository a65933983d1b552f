import Clockwork
import Foundation
import ShortcutsSystemTestSupport
import Testing

@testable import MCPServerApps

/// Reading a started server's standard output: a long message written in many small writes is
/// read in time linear in its length.
@Suite("MCP server output", .serialized, .timeLimit(.minutes(1)))
struct MCPServerProcessTests {
    /// For each line `N` it reads, writes one message with a text of `N` bytes, 512 bytes a write.
    private static let writer = """
        import os, sys
        piece = b"a" * 512
        for line in sys.stdin:
            os.write(1, b'{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"')
            for _ in range(int(line) // 512):
                os.write(1, piece)
            os.write(1, b'"}}\\n')
        """

    /// A message written in thousands of small writes arrives whole, each time. That reading
    /// it takes time linear in its length is the line splitter's to show
    /// (`LineSplitterTests.splittingALineTakesTimeLinearInItsLength`, the splitter this reader
    /// uses, measured on a thread of its own): measured here, through a process and Swift's
    /// cooperative pool, a busy machine's stalls weighed far more than the reading.
    @Test func aLongMessageInManySmallWritesArrivesWhole() async throws {
        let process = try MCPServerProcess(
            command: PythonMCPSDK.python ?? "python3", arguments: ["-c", Self.writer], environment: ProcessInfo.processInfo.environment)
        var messages = process.messages.makeAsyncIterator()
        for length in [384 * 1024, 3 * 1024 * 1024, 384 * 1024, 3 * 1024 * 1024] {
            try await process.send(Data(String(length).utf8))
            let message = await messages.next()
            #expect(message?.count == length + 71)
        }
        await process.stop()
    }

    @Test func aServerThatIgnoresItsEndIsKilledWhenTheClockPassesBothGracePeriods() async throws {
        let folder = try TemporaryFolder.make(prefix: "mcp-stubborn")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ready = folder.appendingPathComponent("ready").path
        let clock = ManualClock()
        let process = try MCPServerProcess(
            command: "/bin/sh", arguments: ["-c", "trap '' TERM; : > \"$0\"; while :; do sleep 1; done", ready],
            environment: ProcessInfo.processInfo.environment, clock: clock)
        try #require(try await eventually(watching: [.file(URL(fileURLWithPath: ready))]) { FileManager.default.fileExists(atPath: ready) })
        let start = clock.now()
        let stopping = Task { await process.stop(grace: .seconds(1)) }
        // Standard input closed: the server has one second of the clock to exit.
        try await clock.waitForSleeper(deadline: start.adding(.seconds(1)))
        clock.advance(by: .seconds(1))
        // SIGTERM, ignored: one more second, then SIGKILL.
        try await clock.waitForSleeper(deadline: start.adding(.seconds(2)))
        #expect(process.termination == nil)
        clock.advance(by: .seconds(1))
        await stopping.value
        #expect(process.termination == .signaled(SIGKILL))
    }

    @Test func aServerThatExitsWhenItsInputClosesStopsWithoutTheClockMoving() async throws {
        let process = try MCPServerProcess(
            command: "/bin/cat", arguments: [], environment: ProcessInfo.processInfo.environment, clock: ManualClock())
        await process.stop()
        #expect(process.termination == .exited(0))
    }
}
