import Clockwork
import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import Testing

@testable import IntentExtensions

@Suite(
    .enabled(if: SystemComponents.available(TestExtension.python), "needs python3 for the test extension"),
    .timeLimit(.minutes(3)))
struct ExtensionHostTests {
    let executable: URL
    let host: ExtensionHost

    init() async throws {
        executable = try TestExtension.install()
        let handshake = try await ExtensionHandshake.perform(name: "Tester", executable: executable.path)
        host = ExtensionHost(
            name: "Tester", executable: executable.path, metadata: handshake.metadata,
            configuration: ExtensionHost.Configuration(cancellationGrace: .milliseconds(300)))
    }

    func perform(_ intent: String, _ arguments: [String: IntentValue] = [:], interaction: any Interaction = NoInteraction()) async throws
        -> HostedIntentResult
    {
        try await host.perform(HostedIntentRequest(app: "Tester", intent: intent, arguments: arguments, locale: "en", interaction: interaction))
    }

    func finish() async {
        let pid = host.processIdentifier
        await host.stop()
        if let pid { #expect(!TestExtension.isAlive(pid), "the extension is still running after stop") }
    }

    @Test func handshakeReadsTheMetadataAndStopsTheExtension() async throws {
        let handshake = try await ExtensionHandshake.perform(name: "Tester", executable: executable.path)
        #expect(handshake.metadata.apps.map(\.name) == ["Tester"])
        #expect(handshake.metadata.apps[0].intents.contains { $0.name == "Tester.Echo" })
        let pid = try #require(TestExtension.pid(beside: executable))
        #expect(!TestExtension.isAlive(pid), "the extension is still running after the handshake")
    }

    @Test func performsAnIntentAndConvertsItsResult() async throws {
        let result = try await perform("Echo", ["text": .string("hello")])
        #expect(result.value == .string("hello"))
        #expect(result.dialog == "Echoed hello")
        #expect(result.details["pid"] == .int(Int(host.processIdentifier ?? 0)))
        let entity = try await perform("Newest").value
        guard case .entity(let item) = entity else {
            Issue.record("expected an entity, got \(String(describing: entity))")
            return
        }
        #expect(item.typeName == "Item" && item.identifier == "3" && item.properties["size"] == .int(30))
        #expect(item.properties["added"] == .date(DateText.parse("2026-01-03T00:00:00Z")!))
        #expect(try await perform("Feel").value == .enumCase(EnumCaseValue(typeName: "Mood", rawValue: "calm", title: "Calm")))
        await finish()
    }

    @Test func prepareStartsTheExtensionInTheBackgroundAndTheFirstRequestUsesIt() async throws {
        let handshakePID = TestExtension.pid(beside: executable)
        host.prepare()
        host.prepare()
        try #require(
            try await eventually(watching: [.folder(executable.deletingLastPathComponent())]) {
                TestExtension.pid(beside: executable).map { $0 != handshakePID && TestExtension.isAlive($0) } ?? false
            })
        let started = try #require(TestExtension.pid(beside: executable))
        let result = try await perform("Echo", ["text": .string("ready")])
        #expect(result.details["pid"] == .int(Int(started)))
        await finish()
    }

    @Test func overlappingRequestsAreAnsweredByOneProcess() async throws {
        _ = try await perform("Echo", ["text": .string("warm up")])
        let pid = host.processIdentifier
        let started = ContinuousClock.now
        let results = try await withThrowingTaskGroup(of: IntentValue?.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await self.perform(index % 2 == 0 ? "Slow" : "Echo", ["text": .string(index % 2 == 0 ? "2.0" : "x\(index)")]).value
                }
            }
            return try await group.reduce(into: [IntentValue?]()) { $0.append($1) }
        }
        #expect(results.filter { $0 == IntentValue.string("slept") }.count == 4)
        // One after the other, the four 2-second requests would take 8 s; together about 2 s, and
        // the margin absorbs a machine whose other suites hold its threads for a while.
        #expect(ContinuousClock.now - started < .seconds(6), "the slow requests ran one after the other")
        #expect(host.processIdentifier == pid)
        await finish()
    }

    @Test func aCrashFailsTheRequestWithTheSignalAndTheNextRequestStartsItAgain() async throws {
        _ = try await perform("Echo", ["text": .string("before")])
        let first = try #require(host.processIdentifier)
        await #expect {
            try await perform("Crash")
        } throws: { error in
            "\(error)" == "extension Tester exited with signal 11 while performing Crash"
        }
        #expect(!TestExtension.isAlive(first))
        #expect(try await perform("Echo", ["text": .string("after")]).value == .string("after"))
        #expect(host.processIdentifier != first)
        await #expect {
            try await perform("Exit")
        } throws: { error in
            "\(error)" == "extension Tester exited with status 3 while performing Exit"
        }
        await finish()
    }

    @Test func whatAnExtensionWroteToStandardErrorBeforeItExitedIsInTheError() async throws {
        _ = try await perform("Echo", ["text": .string("before")])
        await #expect {
            try await perform("Raise")
        } throws: { error in
            let text = "\(error)"
            // Not the line it wrote when it started: only what it wrote while the request ran.
            return text.hasPrefix("extension Tester exited with status 1 while performing Raise\nwhat it wrote to standard error:\n")
                && text.contains("  Traceback (most recent call last):") && text.hasSuffix("  RuntimeError: the shelf fell over")
                && !text.contains("test extension started")
        }
        await finish()
    }

    @Test func garbageIsAProtocolErrorNamingTheExtension() async throws {
        _ = try await perform("Echo", ["text": .string("before")])
        let first = try #require(host.processIdentifier)
        await #expect {
            try await perform("Garbage")
        } throws: { error in
            "\(error)".hasPrefix("protocol error: extension Tester wrote a line that is not a JSON-RPC message: 'hello, this is not JSON'")
        }
        await #expect {
            try await perform("Stray")
        } throws: { error in
            "\(error)".hasPrefix("protocol error: extension Tester answered request 99999, which was not asked or was answered already")
        }
        #expect(await TestExtension.waitUntilEnded(first), "the extension that wrote garbage was not ended")
        #expect(try await perform("Echo", ["text": .string("after")]).value == .string("after"))
        await finish()
    }

    @Test func cancellationFailsAtOnceAndAnExtensionThatStopsStaysUp() async throws {
        _ = try await perform("Echo", ["text": .string("before")])
        let pid = host.processIdentifier
        // A perform of thirty seconds: a cancelled request that waited for the extension's
        // answer would take all of them, where one that fails at once takes a fraction of a
        // second even on a busy machine. (The real clock: the grace period below is the
        // extension's, in its own process.)
        let task = Task { try await perform("Slow", ["text": .string("30")]) }
        #expect(try await TestExtension.waitUntilPerforming("Slow", beside: executable))
        let cancelled = ContinuousClock.now
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(ContinuousClock.now - cancelled < .seconds(15), "the cancelled request waited for the extension")
        // Wall time: nothing happens when the extension honoured $/cancel; twice the 300 ms grace shows that.
        try await Task.sleep(for: .milliseconds(600))
        #expect(host.processIdentifier == pid, "an extension that honoured $/cancel was ended")
        await finish()
    }

    @Test func anExtensionThatIgnoresCancellationIsEndedAfterTheGrace() async throws {
        _ = try await perform("Echo", ["text": .string("before")])
        let pid = try #require(host.processIdentifier)
        let task = Task { try await perform("Hang") }
        #expect(try await TestExtension.waitUntilPerforming("Hang", beside: executable))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await TestExtension.waitUntilEnded(pid), "the hanging extension is still running")
        #expect(try await perform("Echo", ["text": .string("after")]).value == .string("after"))
        await finish()
    }

    @Test func questionsAreAnsweredByTheRequestsInteraction() async throws {
        let answered = try await perform("Ask", interaction: ScriptedInteraction(answers: ["text": "from the engine"]))
        #expect(answered.value == IntentValue.string("from the engine"))
        await #expect {
            try await perform("Ask")
        } throws: { error in
            guard case InteractionError.cannotAsk(let question) = error else { return false }
            return question.text == "Which text?" && question.name == "text"
        }
        await finish()
    }

    @Test func propertyQueriesArePushedDownWithTheirComparatorsSortAndLimit() async throws {
        let conditions = [
            PropertyCondition(property: "size", comparator: .greaterThan, operands: [.int(5)]),
            PropertyCondition(property: "added", comparator: .lessThan, operands: [.date(DateText.parse("2026-02-01")!)])
        ]
        let found = try await host.entities(
            HostedEntityRequest(
                app: "Tester", entity: "Tester.Item",
                query: .properties(conditions: conditions, mode: .and, sort: [PropertySort(property: "size", order: .descending)], limit: 2),
                locale: "en"))
        #expect(found.map(\.identifier) == ["1", "2"])
        #expect(found[0].properties["size"] == .int(10))
        _ = try await host.entities(HostedEntityRequest(app: "Tester", entity: "Item", query: .matching("item"), locale: "en"))
        _ = try await host.entities(HostedEntityRequest(app: "Tester", entity: "Item", query: .identifiers(["2"]), locale: "en"))
        let requests = try TestExtension.recordedRequests(beside: executable)
        #expect(requests.map { $0["method"] as? String } == ["entities/query", "entities/matching", "entities/byIdentifiers"])
        let query = try #require(requests.first?["params"] as? [String: Any])
        #expect(query["entity"] as? String == "Item")
        #expect(query["limit"] as? Int == 2)
        #expect(query["mode"] as? String == "and")
        let sent = try #require(query["conditions"] as? [[String: Any]])
        #expect(sent.map { $0["comparator"] as? String } == ["greaterThan", "lessThan"])
        #expect((sent[1]["operands"] as? [String])?.first?.hasPrefix("2026-02-01") == true)
        #expect((query["sort"] as? [[String: String]]) == [["property": "size", "order": "descending"]])
        await finish()
    }

    @Test func anIdleExtensionStopsAfterTheTimeoutAndStartsAgainOnUse() async throws {
        let clock = ManualClock()
        let metadata = try await ExtensionHandshake.perform(name: "Tester", executable: executable.path).metadata
        let idle = ExtensionHost(
            name: "Tester", executable: executable.path, metadata: metadata,
            configuration: ExtensionHost.Configuration(idleTimeout: .seconds(300), clock: clock))
        let value = try await idle.perform(
            HostedIntentRequest(app: "Tester", intent: "Pid", arguments: [:], locale: "en", interaction: NoInteraction()))
        guard case .int(let pid) = value.value else {
            Issue.record("no pid")
            return
        }
        // The host waits for the idle timeout counted from the request's end, and not a moment less.
        try await clock.waitForSleepers(1)
        #expect(clock.nextDeadline == clock.now().adding(.seconds(300)))
        clock.advance(by: .seconds(299))
        #expect(idle.processIdentifier == Int32(pid), "the extension was stopped before its idle timeout")
        clock.advance(by: .seconds(1))
        #expect(await TestExtension.waitUntilEnded(Int32(pid)), "the idle extension was not stopped")
        #expect(idle.processIdentifier == nil)
        let again = try await idle.perform(
            HostedIntentRequest(app: "Tester", intent: "Echo", arguments: ["text": .string("back")], locale: "en", interaction: NoInteraction()))
        #expect(again.value == .string("back"))
        await idle.stop()
        // The second request's idle watcher finds the extension stopped, and ends.
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(300))
    }

    @Test func aMissingProgramCannotStart() async throws {
        await #expect {
            try await ExtensionHandshake.perform(name: "Ghost", executable: "/nonexistent/ghost")
        } throws: { error in
            "\(error)" == "extension Ghost cannot start: no such file"
        }
    }

    @Test func waitingForAStartThatHangsEndsWhenTheCallerIsCancelled() async throws {
        let clock = ManualClock()
        let silent = executable.deletingLastPathComponent().appendingPathComponent("silent.sh")
        try ExecutableFile.write("#!/bin/sh\nexec sleep 60\n", to: silent)
        let metadata = try await ExtensionHandshake.perform(name: "Tester", executable: executable.path).metadata
        let hanging = ExtensionHost(
            name: "Tester", executable: silent.path, metadata: metadata,
            configuration: ExtensionHost.Configuration(startTimeout: .seconds(6), clock: clock))
        func echo() async throws -> HostedIntentResult {
            try await hanging.perform(HostedIntentRequest(app: "Tester", intent: "Echo", arguments: [:], locale: "en", interaction: NoInteraction()))
        }
        let task = Task { try await echo() }
        // The start waits for `initialize`, its six-second timeout asleep on the clock.
        try await clock.waitForSleepers(1)
        task.cancel()
        // The clock has not moved: the cancelled caller did not wait for the start's timeout.
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 1, "the start did not go on without its caller")
        // The next caller starts the extension again, and fails when its start times out.
        let next = Task { try await echo() }
        try await clock.waitForSleepers(2)
        clock.advance(by: .seconds(6))
        await #expect {
            try await next.value
        } throws: { error in
            "\(error)" == "extension Tester did not answer initialize within 6.0 seconds, and was ended"
        }
        #expect(
            try await TestExtension.waitUntilNoneRuns(silent.path), "the silent extension is still running")
    }

    @Test func anExtensionThatClosesItsOutputButGoesOnIsEndedAndSaysSo() async throws {
        try await expectHandshake(
            of: "Closer", file: "closer.sh", script: "#!/bin/sh\nexec >&-\nsleep 60\n",
            failsWith: "extension Closer closed its standard output (end of file) but went on running, and was ended while starting")
    }

    @Test func anExtensionWithoutACommonProtocolVersionIsRefused() async throws {
        let futureScript = """
            #!/usr/bin/env python3
            import json, sys
            for line in sys.stdin:
                message = json.loads(line)
                print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32002,
                    "message": "unsupported protocol version", "data": {"supported": [2, 3]}}}), flush=True)
            """
        try await expectHandshake(
            of: "Future", file: "future.py", script: futureScript, failsWith: "extension Future speaks protocol version 2, 3, this engine speaks 1")
    }

    /// Writes `script` beside the test extension as `file`, expects its handshake to fail with
    /// `message`, and expects the program to be gone afterwards.
    private func expectHandshake(
        of name: String, file: String, script: String, failsWith message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let program = executable.deletingLastPathComponent().appendingPathComponent(file)
        try ExecutableFile.write(script, to: program)
        await #expect(sourceLocation: sourceLocation) {
            try await ExtensionHandshake.perform(name: name, executable: program.path)
        } throws: { error in
            "\(error)" == message
        }
        #expect(
            try await TestExtension.waitUntilNoneRuns(program.path),
            "the refused extension \(name) is still running", sourceLocation: sourceLocation)
    }
}
