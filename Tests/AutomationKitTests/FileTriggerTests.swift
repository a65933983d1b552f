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

    private func startDaemon(_ lines: LogLines, grace: Duration = .seconds(2)) throws -> AutomationDaemon {
        let daemon = AutomationDaemon(
            .init(workflows: workflows, catalog: IntentCatalog(apps: []), home: home, grace: grace), logger: lines.logger)
        try daemon.start()
        return daemon
    }

    /// The file runs recorded so far, oldest first, as (event, file name, status).
    private func fileRuns() throws -> [(event: String, file: String, status: RunHistory.Status)] {
        let history = try RunHistory(path: home.appendingPathComponent("runs.sqlite").path)
        return try history.runs(RunHistory.Filter(trigger: "file", limit: 1000)).reversed().map { run in
            guard case .dictionary(let inputs)? = try run.inputs.map(IntentValue.fromJSON) else { return ("", "", run.status) }
            let file = inputs["file"].map { URL(fileURLWithPath: $0.displayText).lastPathComponent } ?? ""
            return (inputs["event"]?.displayText ?? "", file, run.status)
        }
    }

    private func write(_ name: String, _ text: String) throws {
        try text.write(to: inbox.appendingPathComponent(name), atomically: false, encoding: .utf8)
    }

    private func append(_ name: String, _ text: String) throws {
        let handle = try FileHandle(forWritingTo: inbox.appendingPathComponent(name))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    @Test("Created, modified and deleted each run once; names off the pattern and events not listed do not run")
    func events() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try writeWorkflow("all.yaml", watcher())
        try writeWorkflow("gone.yaml", watcher(events: "[deleted]", pattern: "*.pdf"))
        let lines = LogLines()
        let daemon = try startDaemon(lines)
        #expect(daemon.scheduledCount == 0, "watches are not scheduled")
        try write("a.txt", "one")
        try write("b.pdf", "not a text")
        try await eventually(timeout: 30, every: .milliseconds(50)) { try fileRuns().count >= 1 }
        try append("a.txt", " two")
        try await eventually(timeout: 30, every: .milliseconds(50)) { try fileRuns().count >= 2 }
        try FileManager.default.removeItem(at: inbox.appendingPathComponent("a.txt"))
        try FileManager.default.removeItem(at: inbox.appendingPathComponent("b.pdf"))
        try await eventually(timeout: 30, every: .milliseconds(50)) { try fileRuns().count >= 4 }
        try await Task.sleep(for: .milliseconds(600))
        await daemon.stop()
        let runs = try fileRuns()
        #expect(runs.filter { $0.file == "a.txt" }.map(\.event) == ["created", "modified", "deleted"])
        #expect(runs.filter { $0.file == "b.pdf" }.map(\.event) == ["deleted"], "gone.yaml listens to deletions of PDFs only")
        #expect(runs.count == 4)
        #expect(runs.allSatisfy { $0.status == .succeeded })
        #expect(lines.contains("watching \(inbox.path) for all (created, modified, deleted; *.txt)"))
        #expect(lines.first { $0.hasPrefix("all: run ") && $0.hasSuffix("started (file created: \(inbox.path)/a.txt)") } != nil)
    }

    @Test("A burst of writes runs once; two files run twice")
    func bursts() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        // A quiet time far longer than the pauses between writes, so that a busy machine does not split the burst.
        try writeWorkflow("all.yaml", watcher(debounce: "2s"))
        let daemon = try startDaemon(LogLines())
        // Written from a thread of its own, so that the pauses do not wait for the tests' busy task pool.
        let folder = inbox
        try await onThread {
            try "".write(to: folder.appendingPathComponent("burst.txt"), atomically: false, encoding: .utf8)
            for index in 0..<15 {
                let handle = try FileHandle(forWritingTo: folder.appendingPathComponent("burst.txt"))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data("line \(index)\n".utf8))
                try handle.close()
                Thread.sleep(forTimeInterval: 0.03)
            }
            try "x".write(to: folder.appendingPathComponent("other.txt"), atomically: false, encoding: .utf8)
        }
        try await eventually(timeout: 30, every: .milliseconds(50)) { try fileRuns().count >= 2 }
        try await Task.sleep(for: .milliseconds(2500))
        await daemon.stop()
        let runs = try fileRuns()
        #expect(runs.filter { $0.file == "burst.txt" }.map(\.event) == ["created"], "fifteen writes 30 ms apart are one burst")
        #expect(runs.filter { $0.file == "other.txt" }.map(\.event) == ["created"])
    }

    @Test("A file still being written runs once it is closed, however long its writer pauses")
    func slowWriter() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try writeWorkflow("all.yaml", watcher(debounce: "300ms"))
        let daemon = try startDaemon(LogLines())
        let slow = inbox.appendingPathComponent("slow.txt")
        #expect(FileManager.default.createFile(atPath: slow.path, contents: nil))
        let handle = try FileHandle(forWritingTo: slow)
        for _ in 0..<3 {
            try handle.write(contentsOf: Data("chunk\n".utf8))
            try await Task.sleep(for: .milliseconds(800))
        }
        let beforeClose = try fileRuns().count
        try handle.close()
        try await eventually(timeout: 30, every: .milliseconds(50)) { try fileRuns().contains { $0.file == "slow.txt" } }
        try await Task.sleep(for: .milliseconds(800))
        await daemon.stop()
        #expect(beforeClose == 0, "a file still open for writing does not run")
        #expect(try fileRuns().map(\.event) == ["created"])
    }

    /// Runs blocking work on a thread outside Swift's cooperative pool.
    private func onThread(_ work: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    @Test("A disabled watch does not run; edits add and remove watches; a folder that appears later is watched")
    func reloadsAndMissingFolders() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try writeWorkflow("all.yaml", watcher(extra: "  enabled: false"))
        let lines = LogLines()
        let daemon = try startDaemon(lines)
        #expect(!lines.contains { $0.hasPrefix("watching \(inbox.path)") }, "a disabled automation watches nothing")

        // Enabled: the folder does not exist yet, so it is waited for.
        try writeWorkflow("all.yaml", watcher())
        try await eventually(timeout: 30, every: .milliseconds(50)) {
            lines.contains { $0.hasPrefix("cannot watch \(inbox.path) for all: it does not exist") }
        }
        let missing = try #require(lines.first { $0.hasPrefix("cannot watch \(inbox.path)") })
        #expect(lines.level(of: missing) == .error)
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try await eventually(timeout: 30, every: .milliseconds(50)) { lines.contains("\(inbox.path) appeared: watching it for all") }
        try write("late.txt", "x")
        try await eventually(timeout: 30, every: .milliseconds(50)) { try fileRuns().count >= 1 }

        // Deleted: the watch goes with it.
        try FileManager.default.removeItem(at: workflows.appendingPathComponent("all.yaml"))
        try await eventually(timeout: 30, every: .milliseconds(50)) { lines.contains("no longer watching \(inbox.path) for all") }
        try write("after.txt", "x")
        try await Task.sleep(for: .milliseconds(800))
        await daemon.stop()
        #expect(try fileRuns().map(\.file) == ["late.txt"])
    }

    @Test("Stopping runs no new file runs, and cancels running ones after the grace period")
    func stopping() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try writeWorkflow("slow.yaml", watcher(extra: "") + "\n  - wait: 10s\n")
        let daemon = try startDaemon(LogLines(), grace: .milliseconds(300))
        try write("a.txt", "x")
        try await eventually(timeout: 30, every: .milliseconds(50)) { try fileRuns().contains { $0.status == .running } }
        await daemon.stop()
        try write("b.txt", "x")
        try await Task.sleep(for: .milliseconds(500))
        let runs = try fileRuns()
        #expect(runs.map(\.file) == ["a.txt"])
        #expect(runs.map(\.status) == [.cancelled])
    }

    @Test("At most four runs of one automation's file events run at once; the others wait and run")
    func runsAtOnce() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try writeWorkflow("slow.yaml", watcher() + "\n  - wait: 2s\n")
        let daemon = try startDaemon(LogLines())
        for index in 0..<7 { try write("file-\(index).txt", "x") }
        try await eventually(timeout: 30, every: .milliseconds(50)) { try fileRuns().filter { $0.status == .succeeded }.count >= 7 }
        await daemon.stop()
        let runs = try RunHistory(path: home.appendingPathComponent("runs.sqlite").path).runs(RunHistory.Filter(trigger: "file"))
        #expect(runs.count == 7)
        let overlaps = runs.map { run in
            runs.filter { other in other.startedAt <= run.startedAt && (other.endedAt ?? .distantFuture) > run.startedAt }.count
        }
        #expect(overlaps.max() == FileTriggerTests.runsAtOnce, "\(overlaps)")
    }

    static let runsAtOnce = DaemonEngine.fileRunsAtOnce

    @Test("A daemon runs a webhook's automation by name, recorded and logged like its other runs")
    func webhookInTheDaemon() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try writeWorkflow("deploy.yaml", "input:\n  title: String\nautomation:\n  webhook: deploy\nsteps: [ { show: \"${input.title}\" } ]\n")
        try writeWorkflow("off.yaml", "automation:\n  webhook: paused\n  enabled: false\nsteps: [ { show: paused } ]\n")
        let lines = LogLines()
        let daemon = try startDaemon(lines)
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
