import Foundation
import IntentKit
import Logging
import ShortcutsTestSupport
import Testing
import WorkflowKit

@testable import AutomationKit

/// The daemon's file triggers on real files in temporary folders: each burst of a file's
/// events runs the automation once, with the file and the event as inputs, recorded with the
/// trigger `file`.
///
/// The daemon runs on a manual clock. After changing files a test has the watcher handle the
/// events the kernel queued (``AutomationDaemon/handlePendingFileEvents()``), waits for the check
/// of a burst's end to sleep on the clock, and advances the clock past it; quiet times, stalled
/// writers, runs' `wait:` and the grace period pass only then, and nothing waits on real time.
@Suite("File triggers", .serialized)
struct FileTriggerTests {
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("automation-files-\(UUID().uuidString)")
    private var workflows: URL { root.appendingPathComponent("Workflows") }
    private var inbox: URL { root.appendingPathComponent("inbox") }
    private var home: URL { root.appendingPathComponent("home") }

    /// A workflow that shows the event and the file it runs for.
    private func watcher(
        events: String = "[created, modified, deleted]", pattern: String = "*.txt", debounce: String = "200ms", extra: String = ""
    ) -> String {
        """
        input:
          file: String
          event: String
        automation:
          watch: { path: ../inbox, events: \(events), pattern: "\(pattern)", debounce: \(debounce) }
        \(extra)
        steps:
          - show: "${input.event} ${input.file}"
        """
    }

    private func writeWorkflow(_ name: String, _ yaml: String) throws {
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        try yaml.write(to: workflows.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// A daemon on `clock` that reads the folder when it starts and on ``AutomationDaemon/reload()``.
    private func startDaemon(_ lines: LogLines, clock: ManualClock, grace: Duration = .seconds(2)) throws -> AutomationDaemon {
        var configuration = AutomationDaemon.Configuration(
            workflows: workflows, catalog: IntentCatalog(apps: []), home: home, grace: grace, watchesFolder: false)
        configuration.clock = clock
        let daemon = AutomationDaemon(configuration, logger: lines.logger)
        try daemon.start()
        return daemon
    }

    /// Has the daemon handle the file events so far, waits for `count` checks of a burst's end
    /// a quiet time of `debounce` from now, and advances the clock to it.
    private func settle(_ daemon: AutomationDaemon, _ clock: ManualClock, debounce: Duration = .milliseconds(200), count: Int = 1)
        async throws
    {
        daemon.handlePendingFileEvents()
        let end = clock.now().adding(debounce)
        try await clock.waitForSleeper(deadline: end, count: count)
        clock.advance(to: end)
    }

    /// Waits for the history or the log to show what `condition` looks for: an event, with
    /// patience for a broken test only.
    private func until(_ lines: LogLines? = nil, _ condition: () throws -> Bool) async throws {
        let logged: [ChangeSource] = lines.map { [.notice($0.appended)] } ?? []
        #expect(try await eventually(watching: [.folder(home)] + logged) { try condition() })
    }

    /// The file runs recorded so far, oldest first, as (event, file name, status).
    private func fileRuns() throws -> [(event: String, file: String, status: RunHistory.Status)] {
        try fileRunRecords().map { run in
            guard case .dictionary(let inputs)? = try run.inputs.map(IntentValue.fromJSON) else { return ("", "", run.status) }
            let file = inputs["file"].map { URL(fileURLWithPath: $0.displayText).lastPathComponent } ?? ""
            return (inputs["event"]?.displayText ?? "", file, run.status)
        }
    }

    private func fileRunRecords() throws -> [RunHistory.Run] {
        let history = try RunHistory(path: home.appendingPathComponent("runs.sqlite").path)
        return try history.runs(RunHistory.Filter(trigger: "file", limit: 1000)).reversed()
    }

    /// Whether two times are the same to within a millisecond, as the history stores them.
    private func same(_ left: Date, _ right: Date) -> Bool {
        abs(left.timeIntervalSince(right)) < 0.001
    }

    /// Writes a file of the inbox from a shell, so that its close is queued when this returns
    /// (``ShellWriter``).
    private func write(_ name: String, _ text: String) async throws {
        try await ShellWriter.write(text, to: inbox.appendingPathComponent(name))
    }

    private func append(_ name: String, _ text: String) async throws {
        try await ShellWriter.write(text, to: inbox.appendingPathComponent(name), appending: true)
    }

    @Test("Created, modified and deleted each run once; names off the pattern and events not listed do not run")
    func events() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try writeWorkflow("all.yaml", watcher())
        try writeWorkflow("gone.yaml", watcher(events: "[deleted]", pattern: "*.pdf"))
        let lines = LogLines()
        let clock = ManualClock()
        let daemon = try startDaemon(lines, clock: clock)
        #expect(daemon.scheduledCount == 0, "watches are not scheduled")
        try await write("a.txt", "one")
        try await write("b.pdf", "not a text")
        try await settle(daemon, clock, count: 2)
        try await until { try fileRuns().count >= 1 }
        try await append("a.txt", " two")
        try await settle(daemon, clock)
        try await until { try fileRuns().count >= 2 }
        try FileManager.default.removeItem(at: inbox.appendingPathComponent("a.txt"))
        try FileManager.default.removeItem(at: inbox.appendingPathComponent("b.pdf"))
        try await settle(daemon, clock, count: 2)
        try await until { try fileRuns().count >= 4 }
        #expect(daemon.handlePendingFileEvents() == 0, "every burst has ended")
        await daemon.stop()
        let runs = try fileRuns()
        #expect(runs.filter { $0.file == "a.txt" }.map(\.event) == ["created", "modified", "deleted"])
        #expect(runs.filter { $0.file == "b.pdf" }.map(\.event) == ["deleted"], "gone.yaml listens to deletions of PDFs only")
        #expect(runs.count == 4)
        #expect(runs.allSatisfy { $0.status == .succeeded })
        #expect(lines.contains("watching \(inbox.path) for all (created, modified, deleted; *.txt)"))
        #expect(lines.first { $0.hasPrefix("all: run ") && $0.hasSuffix("started (file created: \(inbox.path)/a.txt)") } != nil)
    }

    @Test("A burst of writes runs once, a quiet time after its last write; two files run twice")
    func bursts() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try writeWorkflow("all.yaml", watcher(debounce: "2s"))
        let clock = ManualClock()
        let start = clock.now()
        let daemon = try startDaemon(LogLines(), clock: clock)
        try await write("burst.txt", "")
        for index in 0..<5 { try await append("burst.txt", "line \(index)\n") }
        daemon.handlePendingFileEvents()
        try await clock.waitForSleeper(deadline: start.adding(.seconds(2)))
        // 1.5 s later, within the quiet time: more writes, and another file.
        clock.advance(to: start.adding(.milliseconds(1500)))
        for index in 5..<10 { try await append("burst.txt", "line \(index)\n") }
        try await write("other.txt", "x")
        daemon.handlePendingFileEvents()
        // The first check finds the quiet time not over and checks again at its new end.
        clock.advance(to: start.adding(.seconds(2)))
        try await clock.waitForSleeper(deadline: start.adding(.milliseconds(3500)), count: 2)
        #expect(try fileRuns().isEmpty, "no burst ends before a quiet time after its last write")
        clock.advance(to: start.adding(.milliseconds(3500)))
        try await until { try fileRuns().count >= 2 }
        #expect(daemon.handlePendingFileEvents() == 0)
        await daemon.stop()
        let runs = try fileRuns()
        #expect(runs.filter { $0.file == "burst.txt" }.map(\.event) == ["created"], "eleven writes within the quiet time are one burst")
        #expect(runs.filter { $0.file == "other.txt" }.map(\.event) == ["created"])
        #expect(try fileRunRecords().allSatisfy { same($0.startedAt, start.adding(.milliseconds(3500))) })
    }

    @Test("A file still being written runs once it is closed, however long its writer pauses, or once it stalls for a minute")
    func slowWriter() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try writeWorkflow("all.yaml", watcher(debounce: "300ms"))
        let clock = ManualClock()
        let start = clock.now()
        let daemon = try startDaemon(LogLines(), clock: clock)
        // Created empty, then kept open by a shell, as a slow writer does (``HeldOpenFile``).
        try await write("slow.txt", "")
        let writer = try await HeldOpenFile(inbox.appendingPathComponent("slow.txt"))
        try await writer.write("chunk")
        // The quiet time passes while the file is open for writing: the burst goes on, to be
        // checked again when a writer that stopped writing has been quiet for a minute.
        try await settle(daemon, clock, debounce: .milliseconds(300))
        try await clock.waitForSleeper(deadline: start.adding(.seconds(60)))
        for _ in 0..<2 {
            clock.advance(by: .milliseconds(800))
            try await writer.write("chunk")
            #expect(daemon.handlePendingFileEvents() == 1)
        }
        #expect(try fileRuns().isEmpty, "a file still open for writing does not run")
        try await writer.close()
        try await settle(daemon, clock, debounce: .milliseconds(300))
        try await until { try fileRuns().contains { $0.file == "slow.txt" } }
        #expect(try fileRunRecords().map { same($0.startedAt, start.adding(.milliseconds(2200))) } == [true], "a quiet time after the close")

        // A writer that keeps the file open and stops writing: its burst ends after a minute.
        try await write("stalled.txt", "")
        let stalling = try await HeldOpenFile(inbox.appendingPathComponent("stalled.txt"))
        try await stalling.write("half a line")
        try await settle(daemon, clock, debounce: .milliseconds(300))
        let minuteLater = start.adding(.milliseconds(2200)).adding(.seconds(60))
        try await clock.waitForSleeper(deadline: minuteLater)
        #expect(try fileRuns().count == 1)
        clock.advance(to: minuteLater)
        try await until { try fileRuns().count == 2 }
        await daemon.stop()
        #expect(try fileRuns().map(\.file) == ["slow.txt", "stalled.txt"])
        #expect(try fileRuns().map(\.event) == ["created", "created"])
    }

    @Test("A disabled watch does not run; edits add and remove watches; a folder that appears later is watched")
    func reloadsAndMissingFolders() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try writeWorkflow("all.yaml", watcher(extra: "  enabled: false"))
        let lines = LogLines()
        let clock = ManualClock()
        let daemon = try startDaemon(lines, clock: clock)
        #expect(!lines.contains { $0.hasPrefix("watching \(inbox.path)") }, "a disabled automation watches nothing")

        // Enabled: the folder does not exist yet, so it is waited for.
        try writeWorkflow("all.yaml", watcher())
        daemon.reload()
        try await until(lines) { lines.contains { $0.hasPrefix("cannot watch \(inbox.path) for all: it does not exist") } }
        let missing = try #require(lines.first { $0.hasPrefix("cannot watch \(inbox.path)") })
        #expect(lines.level(of: missing) == .error)
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try await until(lines) { lines.contains("\(inbox.path) appeared: watching it for all") }
        try await write("late.txt", "x")
        try await settle(daemon, clock)
        try await until { try fileRuns().count >= 1 }

        // Deleted: the watch goes with it.
        try FileManager.default.removeItem(at: workflows.appendingPathComponent("all.yaml"))
        daemon.reload()
        try await until(lines) { lines.contains("no longer watching \(inbox.path) for all") }
        try await write("after.txt", "x")
        #expect(daemon.handlePendingFileEvents() == 0, "a file in a folder no longer watched starts no burst")
        await daemon.stop()
        #expect(try fileRuns().map(\.file) == ["late.txt"])
    }

    @Test("Stopping runs no new file runs, and cancels running ones after the grace period")
    func stopping() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try writeWorkflow("slow.yaml", watcher(extra: "") + "\n  - wait: 10s\n")
        let clock = ManualClock()
        let daemon = try startDaemon(LogLines(), clock: clock, grace: .milliseconds(300))
        try await write("a.txt", "x")
        try await settle(daemon, clock)
        // The run is in its `wait: 10s`.
        try await clock.waitForSleeper(deadline: clock.now().adding(.seconds(10)))
        let stopping = Task { await daemon.stop() }
        try await clock.waitForSleeper(deadline: clock.now().adding(.milliseconds(300)))
        clock.advance(by: .milliseconds(300))
        await stopping.value
        try await write("b.txt", "x")
        #expect(daemon.handlePendingFileEvents() == 0, "a stopped daemon reads no file events")
        let runs = try fileRuns()
        #expect(runs.map(\.file) == ["a.txt"])
        #expect(runs.map(\.status) == [.cancelled])
    }

    @Test("At most four runs of one automation's file events run at once; the others wait and run")
    func runsAtOnce() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try writeWorkflow("slow.yaml", watcher() + "\n  - wait: 2s\n")
        let clock = ManualClock()
        let daemon = try startDaemon(LogLines(), clock: clock)
        for index in 0..<7 { try await write("file-\(index).txt", "x") }
        try await settle(daemon, clock, count: 7)
        let first = clock.now()
        try await clock.waitForSleeper(deadline: first.adding(.seconds(2)), count: FileTriggerTests.runsAtOnce)
        clock.advance(by: .seconds(2))
        try await clock.waitForSleeper(deadline: first.adding(.seconds(4)), count: 7 - FileTriggerTests.runsAtOnce)
        clock.advance(by: .seconds(2))
        try await until { try fileRuns().filter { $0.status == .succeeded }.count >= 7 }
        await daemon.stop()
        let runs = try fileRunRecords()
        #expect(runs.count == 7)
        #expect(runs.filter { same($0.startedAt, first) }.count == FileTriggerTests.runsAtOnce, "four start at once")
        #expect(runs.filter { same($0.startedAt, first.adding(.seconds(2))) }.count == 3, "the others start as the first end")
    }

    static let runsAtOnce = DaemonEngine.fileRunsAtOnce

    @Test("A daemon runs a webhook's automation by name, recorded and logged like its other runs")
    func webhookInTheDaemon() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try writeWorkflow("deploy.yaml", "input:\n  title: String\nautomation:\n  webhook: deploy\nsteps: [ { show: \"${input.title}\" } ]\n")
        try writeWorkflow("off.yaml", "automation:\n  webhook: paused\n  enabled: false\nsteps: [ { show: paused } ]\n")
        let lines = LogLines()
        let daemon = try startDaemon(lines, clock: ManualClock())
        #expect(daemon.automation(forWebhook: "paused") == nil, "a disabled automation's webhook does not run")
        let automation = try #require(daemon.automation(forWebhook: "deploy"))
        let outcome = await daemon.runNow(automation, inputs: ["title": .string("v2")], trigger: "webhook")
        await daemon.stop()
        #expect(outcome.status == .succeeded)
        let runID = try #require(outcome.runIDs.first)
        let run = try RunHistory(path: home.appendingPathComponent("runs.sqlite").path).run(matching: runID).run
        #expect(run.trigger == "webhook")
        #expect(lines.contains("deploy: run \(runID.prefix(8)) started (webhook)"))
        #expect(lines.contains("deploy: v2"))
        let late = await daemon.runNow(automation, trigger: "webhook")
        #expect(late.status == .cancelled && late.runIDs.isEmpty, "a stopped daemon runs nothing")
    }
}

extension LogLines {
    func contains(where predicate: (String) -> Bool) -> Bool {
        first(where: predicate) != nil
    }
}
