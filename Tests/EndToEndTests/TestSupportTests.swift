import Foundation
import Testing

@Suite(.endToEnd)
struct TestSupportTests {
    @Test(.timeLimit(.minutes(6)))
    func moreThanAPipeHoldsOnBothStreamsDoesNotBlock() async throws {
        let result = try await ShortcutsBinary().run(["run", PackagePaths.fixture("loud.yaml"), "--json"])
        #expect(result.status == 0, "\(result.error.suffix(500))")
        #expect(result.output.utf8.count > 64 * 1024)
        #expect(result.error.utf8.count > 64 * 1024)
        let lines = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String])
        #expect(lines.count == 300)
        #expect(result.error.split(separator: "\n").count == 300)
        #expect(result.error.contains("line 299 of a workflow that writes more than sixty-four kibibytes"))
    }

    @Test func inputLargerThanAPipeHoldsIsWritten() async throws {
        let title = String(repeating: "x", count: 100_000)
        let result = try await ShortcutsBinary().run(
            ["run", PackagePaths.fixture("echo-input.yaml"), "--input-path", "-", "--json"],
            input: #"{"title": "\#(title)"}"#)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains(title))
    }

    @Test func aTaskThatAsksToGoFirstGetsTheNextFreeTurnBeforeTheTasksWaitingBeforeIt() async throws {
        let turns = Turns(1)
        let record = TurnRecord()
        let holder = Task { await turns.taking { await record.hold() } }
        while await !record.isHolding { await Task.yield() }
        let later = Task { await turns.taking { await record.add("later") } }
        while await turns.waitingCount < 1 { await Task.yield() }
        let first = Task { await turns.taking(first: true) { await record.add("first") } }
        while await turns.waitingCount < 2 { await Task.yield() }
        await record.release()
        await holder.value
        await later.value
        await first.value
        #expect(await record.entries == ["first", "later"])
    }
}

/// The order turns were taken in, and a turn held until it is released.
private actor TurnRecord {
    private(set) var entries: [String] = []
    private var holding: CheckedContinuation<Void, Never>?
    var isHolding: Bool { holding != nil }

    func add(_ entry: String) { entries.append(entry) }
    func hold() async { await withCheckedContinuation { holding = $0 } }
    func release() { holding?.resume() }
}
