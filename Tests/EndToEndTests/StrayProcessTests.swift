import Foundation
import ShortcutsSystemTestSupport
import Testing

/// Nothing a run starts outlives it: a shell step's children end with `shortcuts run` and
/// with the daemon, whether they are stopped with `SIGTERM` or killed with `SIGKILL`, and a
/// script's text (secrets filled in) is never left on disk.
@Suite("Stray processes and leftovers", .endToEnd)
struct StrayProcessTests {
    /// A workflow whose script starts two sleepers in the background, writes their pids and a
    /// `ready` file, and waits; the folder it runs in, and a private `TMPDIR`.
    private struct Sleepers {
        let folder: URL
        let temporary: URL
        let file: URL
        let shortcuts: ShortcutsBinary

        init(automation: String = "") throws {
            folder = try TemporaryFolder.make(prefix: "stray")
            temporary = folder.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let workflows = folder.appendingPathComponent("Workflows")
            try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
            file = workflows.appendingPathComponent("sleepers.yaml")
            try """
            \(automation)
            steps:
              - perform: Shell.RunScript
                with:
                  script: |
                    # ${secrets.STRAY_TOKEN}
                    sleep 301 & echo $! > '\(folder.path)/pids'
                    sleep 302 & echo $! >> '\(folder.path)/pids'
                    echo $$ >> '\(folder.path)/pids'
                    touch '\(folder.path)/ready'
                    wait
            """.write(to: file, atomically: true, encoding: .utf8)
            shortcuts = try ShortcutsBinary()
        }

        var environment: [String: String?] { ["TMPDIR": temporary.path] }

        /// Stores the secret the script names.
        func storeSecret() async throws {
            let stored = try await shortcuts.run(["secrets", "set", "STRAY_TOKEN"], input: "stray-s3cr3t-value-0042", environment: environment)
            try #require(stored.status == 0, "\(stored.error)")
        }

        /// The pids the script wrote, once it is ready.
        func readyPIDs() async throws -> [pid_t] {
            let ready = try await eventually(watching: [.folder(folder)]) {
                FileManager.default.fileExists(atPath: folder.appendingPathComponent("ready").path)
            }
            try #require(ready, "the script never started")
            let text = try String(contentsOf: folder.appendingPathComponent("pids"), encoding: .utf8)
            let pids = text.split(separator: "\n").compactMap { pid_t($0) }
            try #require(pids.count == 3)
            return pids
        }

        /// Whether no file under the private `TMPDIR` holds the secret.
        func temporaryFilesHoldNoSecret() -> Bool {
            let walker = FileManager.default.enumerator(atPath: temporary.path)
            while let name = walker?.nextObject() as? String {
                let data = (try? Data(contentsOf: temporary.appendingPathComponent(name))) ?? Data()
                if String(decoding: data, as: UTF8.self).contains("stray-s3cr3t-value-0042") { return false }
            }
            return true
        }
    }

    /// Waits, woken by each exit, until none of the pids runs.
    private func allGone(_ pids: [pid_t]) async throws -> Bool {
        try await eventually(watching: pids.map { .exit($0) }) { pids.allSatisfy { !ProcessGroupProbe.isRunning($0) } }
    }

    @Test(arguments: [SIGTERM, SIGKILL])
    func aShellStepsChildrenEndWithTheRun(signal: Int32) async throws {
        let sleepers = try Sleepers()
        try await sleepers.storeSecret()
        let started = try sleepers.shortcuts.start(["run", sleepers.file.path], in: sleepers.folder, environment: sleepers.environment)
        let pids = try await sleepers.readyPIDs()
        #expect(sleepers.temporaryFilesHoldNoSecret(), "the script with its secret is in no file while it runs")
        started.signal(signal)
        let result = try await started.finish()
        if signal == SIGTERM {
            // SIGTERM cancels the run as Ctrl-C does: recorded as cancelled, exit 128 + 15.
            #expect(result.status == 143, "\(result.error)")
            #expect(result.error.contains("cancelled"))
            let runs = try await sleepers.shortcuts.run(["runs", "list", "--json"], environment: sleepers.environment)
            #expect(runs.output.contains(#""status" : "cancelled""#) || runs.output.contains(#""status":"cancelled""#), "\(runs.output)")
        } else {
            #expect(result.status == signal)
        }
        #expect(try await allGone(pids), "still running after signal \(signal): \(pids.filter(ProcessGroupProbe.isRunning))")
        #expect(sleepers.temporaryFilesHoldNoSecret())
        #expect(try FileManager.default.contentsOfDirectory(atPath: sleepers.temporary.path).isEmpty, "nothing is left in TMPDIR")
    }

    @Test func aShellStepsChildrenEndWithADaemonKilledWithSIGKILL() async throws {
        let sleepers = try Sleepers(automation: "automation: { schedule: \"@reboot\" }")
        try await sleepers.storeSecret()
        let daemon = try sleepers.shortcuts.start(
            ["daemon", "--workflows", sleepers.folder.appendingPathComponent("Workflows").path], in: sleepers.folder,
            environment: sleepers.environment.merging(["JOURNAL_STREAM": nil, "NOTIFY_SOCKET": nil]) { $1 })
        let pids = try await sleepers.readyPIDs()
        daemon.signal(SIGKILL)
        let result = try await daemon.finish()
        #expect(result.status == SIGKILL)
        #expect(try await allGone(pids), "still running after the daemon was killed: \(pids.filter(ProcessGroupProbe.isRunning))")
        #expect(sleepers.temporaryFilesHoldNoSecret())
    }

    @Test(.enabled(if: SystemComponents.available(TestExtension.python), "needs python3 for the extensions"))
    func anExtensionsChildrenEndWithAnEngineKilledWithSIGKILL() async throws {
        let shortcuts = try ShortcutsBinary()
        let tester = try TestExtension.install()
        let folder = tester.deletingLastPathComponent()
        // The extension starts a child of its own before it serves.
        let wrapper = folder.appendingPathComponent("tester-with-child")
        try ExecutableFile.write(
            """
            #!/bin/sh
            sleep 303 </dev/null >/dev/null 2>&1 & echo $! > "$(dirname "$0")/child"
            exec \(TestExtension.python) "$(dirname "$0")/tester.py" "$@"
            """, to: wrapper)
        let added = try await shortcuts.run(["extensions", "add", wrapper.path])
        try #require(added.status == 0, "\(added.error)")
        for name in ["child", "pid"] { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        let engine = try shortcuts.start(["perform", "Tester.Slow", "text=60"])
        let started = try await eventually(watching: [.folder(folder), .exit(engine.pid)]) {
            TestExtension.pid(beside: tester) != nil && FileManager.default.fileExists(atPath: folder.appendingPathComponent("child").path)
        }
        try #require(started, "the extension did not start: \(engine.errorSoFar)")
        let child = try #require(
            pid_t(try String(contentsOf: folder.appendingPathComponent("child"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let extensionPID = try #require(TestExtension.pid(beside: tester))
        engine.signal(SIGKILL)
        #expect(try await engine.finish().status == SIGKILL)
        #expect(try await allGone([child, extensionPID]), "still running after the engine was killed")
    }
}
