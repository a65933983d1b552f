import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import Testing

@testable import BuiltInApps

@Suite struct WriteFileTests {
    @Test func overwriteAppendAndNewWriteWhatTheySay() async throws {
        let files = try FilesHarness()
        try await files.perform("WriteFile", ["path": .string(files.path("log.txt")), "content": .string("one\n")])
        try await files.perform("WriteFile", ["path": .string(files.path("log.txt")), "content": .string("two\n"), "mode": .string("append")])
        #expect(try files.text("log.txt") == "one\ntwo\n")
        try await files.perform("WriteFile", ["path": .string(files.path("log.txt")), "content": .string("three\n")])
        #expect(try files.text("log.txt") == "three\n")
        let message = await files.failure("WriteFile", ["path": .string(files.path("log.txt")), "content": .string("x"), "mode": .string("new")])
        #expect(message.contains("\(files.path("log.txt")) already exists (mode: new never replaces a file"))
        #expect(try files.text("log.txt") == "three\n")
        try await files.perform("WriteFile", ["path": .string(files.path("fresh.txt")), "content": .string("new"), "mode": .string("new")])
        #expect(try files.text("fresh.txt") == "new")
        #expect(try files.names() == ["fresh.txt", "log.txt"], "no temporary file is left behind")
    }

    @Test func returnsTheFileWrittenWithItsProperties() async throws {
        let files = try FilesHarness()
        let value = try await files.perform("WriteFile", ["path": .string(files.path("a.json")), "content": .dictionary(["n": .int(1)])])
        #expect(value.member("name") == .string("a.json"))
        #expect(value.member("contentType") == .string("application/json"))
        #expect(value.member("folder") == .string(files.folder.standardizedFileURL.path))
        #expect(try files.text("a.json") == "{\n  \"n\" : 1\n}\n")
        #expect(value.member("size") == .int(14))
    }

    @Test func aMissingFolderIsAnErrorUnlessCreateFoldersIsSet() async throws {
        let files = try FilesHarness()
        let target = files.path("deep/er/note.txt")
        let message = await files.failure("WriteFile", ["path": .string(target), "content": .string("x")])
        #expect(message.contains("Cannot write \(target): the folder \(files.path("deep/er")) does not exist (set createFolders: true"))
        try await files.perform("WriteFile", ["path": .string(target), "content": .string("x"), "createFolders": .bool(true)])
        #expect(try files.text("deep/er/note.txt") == "x")
    }

    @Test func aFolderWhereAFileIsExpectedIsSaidInWords() async throws {
        let files = try FilesHarness()
        try FileManager.default.createDirectory(atPath: files.path("box"), withIntermediateDirectories: true)
        let message = await files.failure("WriteFile", ["path": .string(files.path("box")), "content": .string("x")])
        #expect(message.contains("\(files.path("box")) is a folder, not a file."))
    }

    @Test func aSymbolicLinkIsWrittenThrough() async throws {
        let files = try FilesHarness()
        try files.make("real.txt", "old")
        try FileManager.default.createSymbolicLink(atPath: files.path("link.txt"), withDestinationPath: files.path("real.txt"))
        try await files.perform("WriteFile", ["path": .string(files.path("link.txt")), "content": .string("new")])
        #expect(try files.text("real.txt") == "new")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: files.path("link.txt")) == files.path("real.txt"))
    }

    @Test func keepsThePermissionsOfTheFileItReplaces() async throws {
        let files = try FilesHarness()
        try files.make("script.sh", "echo 1\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: files.path("script.sh"))
        try await files.perform("WriteFile", ["path": .string(files.path("script.sh")), "content": .string("echo 2\n")])
        let permissions = try FileManager.default.attributesOfItem(atPath: files.path("script.sh"))[.posixPermissions] as? Int
        #expect(permissions == 0o750)
    }

    @Test(
        .enabled(
            if: SystemComponents.available("/bin/mount", asRoot: true),
            "needs root to mount a small tmpfs; the end-to-end tests use the file size limit"))
    func aFullDiskLeavesTheOldFileIntact() throws {
        let mountPoint = try FilesHarness().folder.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint.path]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "mount -t tmpfs failed")
        defer {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
            unmount.arguments = [mountPoint.path]
            try? unmount.run()
            unmount.waitUntilExit()
        }
        let target = mountPoint.appendingPathComponent("data.txt")
        try Data("old contents\n".utf8).write(to: target)
        #expect(throws: FilesApp.FileError.failed(operation: "write", path: target.path, cause: "the disk is full")) {
            try AtomicFileWriter.write(Data(repeating: 65, count: 256 * 1024), to: target, mode: .overwrite, createFolders: false)
        }
        #expect(try String(contentsOf: target, encoding: .utf8) == "old contents\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mountPoint.path) == ["data.txt"])
    }
}
