import Foundation
import ShortcutsSystemTestSupport
import Testing

/// `shortcuts extensions add|list|check|remove` on the test extension and the Pantry example.
@Suite(.enabled(if: SystemComponents.available(TestExtension.python), "needs python3 for the extensions"), .timeLimit(.minutes(6)), .endToEnd)
struct ExtensionsCommandTests {
    static let pantry = ShortcutsBinary.packageRoot.appendingPathComponent("Examples/Pantry/pantry.py").path

    @Test func addListCheckAndRemove() async throws {
        let shortcuts = try ShortcutsBinary()
        let tester = try TestExtension.install()
        let empty = try await shortcuts.run(["extensions", "list"])
        #expect(empty.status == 0)
        #expect(empty.output.contains("No extension installed"))

        let added = try await shortcuts.run(["extensions", "add", tester.path])
        #expect(added.status == 0, "\(added.error)")
        #expect(added.output.hasPrefix("Added extension Tester (\(tester.path)):\n  Tester: 12 intents, 1 entity, 1 enum\n"))
        #expect(added.output.contains("    Tester.Echo  Echo"))
        let pantry = try await shortcuts.run(["extensions", "add", Self.pantry])
        #expect(pantry.status == 0, "\(pantry.error)")
        #expect(pantry.output.contains("Pantry: 4 intents, 1 entity, 1 enum"))
        // The shell completes the installed extensions' names (as the completion scripts ask).
        let completed = try await shortcuts.run([
            "---completion", "extensions", "remove", "--", "positional@0", "3", "1", "shortcuts", "extensions", "remove", "T"
        ])
        #expect(completed.output == "Tester\n", "\(completed.output)\(completed.error)")

        let listed = try await shortcuts.run(["extensions", "list"])
        #expect(listed.status == 0)
        #expect(listed.output.contains("Tester  \(tester.path)\n  Tester: 12 intents, 1 entity, 1 enum\n"))
        #expect(listed.output.contains("    Pantry.AddItem  Add Item"))
        #expect(listed.output.components(separatedBy: "; program present and unchanged").count == 3)
        let json = try await shortcuts.run(["extensions", "list", "--json"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(items.map { $0["name"] as? String } == ["Tester", "Pantry"])
        #expect(items.map { $0["program"] as? String } == ["unchanged", "unchanged"])
        let apps = try #require(items[1]["apps"] as? [[String: Any]])
        #expect(apps.first?["entities"] as? [String] == ["Pantry.PantryItem"])

        let checked = try await shortcuts.run(["extensions", "check", "Pantry"])
        #expect(checked.status == 0, "\(checked.error)")
        #expect(checked.output.contains(#/started in [0-9.]+ ms, answered initialize in [0-9.]+ ms, stopped in [0-9.]+ ms/#))
        #expect(checked.output.contains("metadata unchanged"))

        let removed = try await shortcuts.run(["extensions", "remove", "Tester"])
        #expect(removed.status == 0)
        #expect(removed.output == "Removed extension Tester.\n")
        let unknown = try await shortcuts.run(["extensions", "remove", "Pantri"])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("no extension named 'Pantri' (installed: Pantry)"))
        #expect(unknown.error.contains("help: did you mean 'Pantry'?"))
        #expect(TestExtension.processes(home: shortcuts.home).isEmpty, "extension processes were left running")
    }

    @Test func addRefusesTakenNamesAndAppNames() async throws {
        let shortcuts = try ShortcutsBinary()
        #expect(try await shortcuts.run(["extensions", "add", Self.pantry]).status == 0)
        let again = try await shortcuts.run(["extensions", "add", Self.pantry])
        #expect(again.status == 1)
        #expect(again.error.contains("an extension named 'Pantry' is installed already"))
        let renamed = try await shortcuts.run(["extensions", "add", Self.pantry, "--name", "Larder"])
        #expect(renamed.status == 1)
        #expect(renamed.error.contains("the app 'Pantry' is installed already (extension Pantry)"))
        let missing = try await shortcuts.run(["extensions", "add", "/nonexistent/tool"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("no such file: /nonexistent/tool"))
    }

    @Test func checkFailsWithTheReasonWhenTheExtensionBreaksTheProtocol() async throws {
        let shortcuts = try ShortcutsBinary()
        let tester = try TestExtension.install()
        #expect(try await shortcuts.run(["extensions", "add", tester.path]).status == 0)
        try ExecutableFile.write("#!/bin/sh\necho 'not a message'\nsleep 30\n", to: tester)
        let checked = try await shortcuts.run(["extensions", "check", "Tester"])
        #expect(checked.status == 1)
        #expect(
            checked.error.contains(
                "extension Tester failed its check: protocol error: extension Tester wrote a line that is not a JSON-RPC message: 'not a message'"))
        #expect(TestExtension.processes(home: shortcuts.home).isEmpty, "extension processes were left running")
    }

    @Test func anInvalidRegistryIsReportedWithItsLineAndColumn() async throws {
        let shortcuts = try ShortcutsBinary()
        try FileManager.default.createDirectory(at: shortcuts.home, withIntermediateDirectories: true)
        let file = shortcuts.home.appendingPathComponent("extensions.json")
        try "{\n  \"formatVersion\": 1,\n  \"extensions\": [,]\n}\n".write(to: file, atomically: true, encoding: .utf8)
        let listed = try await shortcuts.run(["extensions", "list"])
        #expect(listed.status == 1)
        #expect(listed.error.contains("\(file.path):3:"))
        #expect(listed.error.contains("the extension registry is not valid"))
        let other = try await shortcuts.run(["list", "intents"])
        #expect(other.status == 0, "a broken registry stopped another command: \(other.error)")
    }

    @Test func anExtensionDiesWithTheEngineEvenWhenTheEngineIsKilledWithSIGKILL() async throws {
        let shortcuts = try ShortcutsBinary()
        let tester = try TestExtension.install()
        #expect(try await shortcuts.run(["extensions", "add", tester.path]).status == 0)
        // An extension that never answers initialize: `check` waits for it while the engine is killed.
        try ExecutableFile.write("#!/bin/sh\necho $$ > \"$(dirname \"$0\")/pid\"\nexec sleep 60\n", to: tester)
        try FileManager.default.removeItem(at: tester.deletingLastPathComponent().appendingPathComponent("pid"))
        let engine = try shortcuts.start(["extensions", "check", "Tester"])
        let pid = try #require(try await TestExtension.waitForPID(beside: tester, engine: engine.pid), "the extension did not start")
        #expect(TestExtension.isAlive(pid))
        engine.signal(SIGKILL)
        _ = try await engine.finish()
        #expect(await TestExtension.waitUntilEnded(pid), "the extension outlived the engine killed with SIGKILL")
    }
}
