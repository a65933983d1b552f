import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import Testing

@testable import IntentExtensions

@Suite(.enabled(if: SystemComponents.available(TestExtension.python), "needs python3 for the test extension"), .timeLimit(.minutes(1)))
struct ExtensionRegistryTests {
    @Test func entriesAreSavedAndLoadedAgain() async throws {
        let home = try TemporaryFolder.make()
        let executable = try TestExtension.install()
        let registry = ExtensionRegistry(home: home)
        #expect(try registry.load().isEmpty)
        let handshake = try await ExtensionHandshake.perform(name: "Tester", executable: executable.path)
        let entry = ExtensionRegistry.Entry(
            name: "Tester", executable: executable.path, fingerprint: try ExecutableFingerprint(path: executable.path),
            checked: Date(timeIntervalSince1970: 1_767_225_600), metadata: handshake.metadata)
        try registry.save([entry])
        #expect(try registry.load() == [entry])
        let loaded = await registry.loadHosts()
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.hosts.map(\.name) == ["Tester"])
        #expect(loaded.hosts.allSatisfy { $0.processIdentifier == nil }, "loading started an extension")
    }

    @Test func anInvalidFileIsReportedWithItsLineAndColumn() throws {
        let home = try TemporaryFolder.make()
        let registry = ExtensionRegistry(home: home)
        try "{\n  \"formatVersion\": 1,\n  \"extensions\": [ oops ]\n}\n".write(to: registry.file, atomically: true, encoding: .utf8)
        #expect {
            try registry.load()
        } throws: { error in
            "\(error)".hasPrefix("\(registry.file.path):3:") && "\(error)".contains("the extension registry is not valid")
        }
        try "{\"formatVersion\": 1, \"extensions\": [{\"name\": \"A\"}]}".write(to: registry.file, atomically: true, encoding: .utf8)
        #expect {
            try registry.load()
        } throws: { error in
            "\(error)".contains("extensions[0] has no 'executable'")
        }
    }

    @Test func aChangedProgramIsReadAgainAndAMissingOneIsLeftOutWithAWarning() async throws {
        let home = try TemporaryFolder.make()
        let executable = try TestExtension.install()
        let registry = ExtensionRegistry(home: home)
        let handshake = try await ExtensionHandshake.perform(name: "Tester", executable: executable.path)
        var stale = handshake.metadata
        stale.apps[0].intents.removeAll { $0.name != "Tester.Echo" }
        let old = Date(timeIntervalSince1970: 0)
        try registry.save([
            ExtensionRegistry.Entry(
                name: "Tester", executable: executable.path, fingerprint: ExecutableFingerprint(size: 1, modified: 2, inode: 3), checked: old,
                metadata: stale),
            ExtensionRegistry.Entry(
                name: "Ghost", executable: "/nonexistent/ghost", fingerprint: ExecutableFingerprint(size: 1, modified: 2, inode: 3), checked: old,
                metadata: stale)
        ])
        let loaded = await registry.loadHosts()
        try #require(loaded.hosts.map(\.name) == ["Tester"])
        #expect(loaded.hosts[0].apps[0].intents.count == handshake.metadata.apps[0].intents.count)
        #expect(
            loaded.warnings == [
                "extension Ghost: its program /nonexistent/ghost cannot be used: no such file; it is left out (shortcuts extensions remove Ghost)"
            ])
        let saved = try registry.load()
        #expect(saved[0].fingerprint == (try ExecutableFingerprint(path: executable.path)))
        #expect(saved[0].checked > old)
        #expect(saved[1].name == "Ghost")
    }

    @Test func unknownNamesGetADidYouMean() throws {
        let registry = ExtensionRegistry(home: try TemporaryFolder.make())
        #expect {
            try registry.entry(named: "Greter", in: [])
        } throws: { error in
            "\(error)" == "no extension named 'Greter' (no extension is installed)"
        }
    }

    @Test func aChangedProgramThatFailsIsNotStartedAgainUntilItChangesAgain() async throws {
        let home = try TemporaryFolder.make()
        let executable = try TestExtension.install()
        let registry = ExtensionRegistry(home: home)
        let handshake = try await ExtensionHandshake.perform(name: "Tester", executable: executable.path)
        try registry.save([
            ExtensionRegistry.Entry(
                name: "Tester", executable: executable.path, fingerprint: try ExecutableFingerprint(path: executable.path), checked: Date(),
                metadata: handshake.metadata)
        ])
        let started = executable.deletingLastPathComponent().appendingPathComponent("started")
        try ExecutableFile.write("#!/bin/sh\necho started >> \"$(dirname \"$0\")/started\"\nexit 3\n", to: executable)
        let first = await registry.loadHosts()
        #expect(first.hosts.isEmpty)
        #expect(
            first.warnings == [
                "extension Tester changed and cannot be read again: extension Tester exited with status 3 while starting; it is left out"
            ])
        let second = await registry.loadHosts()
        #expect(second.hosts.isEmpty)
        #expect(second.warnings.first?.hasSuffix("(shortcuts extensions check Tester once it is fixed)") == true)
        #expect(try String(contentsOf: started, encoding: .utf8) == "started\n", "the failing program was started again")
        #expect(try registry.load()[0].failure?.reason == "extension Tester exited with status 3 while starting")
    }
}
