import Foundation
import IntentKit
import Testing

@testable import BuiltInApps

@Suite struct FileActionTests {
    @Test("Copy and Move into a missing folder: an error that says how, or the folders made with createFolders: true")
    func copyAndMoveCreateFolders() async throws {
        let files = try FilesHarness()
        try files.make("a.txt", "a")
        try files.make("b.txt", "b")
        let missing = await files.failure("Copy", ["source": .string(files.path("a.txt")), "destination": .string(files.path("2026/01/a.txt"))])
        #expect(missing.contains("set createFolders: true to create it"), "\(missing)")
        let intoMissing = await files.failure("Move", ["source": .string(files.path("a.txt")), "destination": .string(files.path("archive") + "/")])
        #expect(intoMissing.contains("set createFolders: true to create it"), "\(intoMissing)")
        #expect(files.exists("a.txt") && !files.exists("archive"), "nothing moved, nothing created")
        try await files.perform(
            "Copy", ["source": .string(files.path("a.txt")), "destination": .string(files.path("2026/01/a.txt")), "createFolders": .bool(true)])
        #expect(try files.text("2026/01/a.txt") == "a")
        // A destination ending with `/` is a folder the item goes into, under its own name.
        let moved = try await files.perform(
            "Move", ["source": .string(files.path("b.txt")), "destination": .string(files.path("archive/2026") + "/"), "createFolders": .bool(true)])
        #expect(try files.text("archive/2026/b.txt") == "b")
        #expect(!files.exists("b.txt"))
        guard case .entity(let entity) = moved else {
            Issue.record("expected the moved file, got \(moved)")
            return
        }
        #expect(entity.identifier == files.path("archive/2026/b.txt"))
    }

    @Test func readFileReturnsTextAndABinaryFileAsAFile() async throws {
        let files = try FilesHarness()
        try files.make("hello.txt", "héllo\n")
        #expect(try await files.perform("ReadFile", ["path": .string(files.path("hello.txt"))]) == .string("héllo\n"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]).write(to: files.folder.appendingPathComponent("image.png"))
        let binary = try await files.perform("ReadFile", ["path": .string(files.path("image.png"))])
        #expect(binary == .file(IntentFile(fileURL: URL(fileURLWithPath: files.path("image.png")))))
    }

    @Test func readingAMissingFileOrAFolderSaysSo() async throws {
        let files = try FilesHarness()
        #expect(
            await files.failure("ReadFile", ["path": .string(files.path("nope.txt"))]).contains(
                "There is no file or folder at \(files.path("nope.txt"))."))
        #expect(await files.failure("ReadFile", ["path": .string(files.folder.path)]).contains("is a folder, not a file."))
    }

    @Test func listFolderMatchesAGlobAndRecursesOnlyWhenAsked() async throws {
        let files = try FilesHarness()
        try files.make("a.pdf", "1")
        try files.make("b.txt", "2")
        try files.make(".hidden.pdf", "3")
        try files.make("docs/c.pdf", "4")
        let top = try await files.perform("ListFolder", ["path": .string(files.folder.path), "pattern": .string("*.pdf")])
        #expect(top.paths == [files.path("a.pdf")])
        let all = try await files.perform("ListFolder", ["path": .string(files.folder.path), "pattern": .string("*.pdf"), "recursive": .bool(true)])
        #expect(all.paths == [files.path("a.pdf"), files.path("docs/c.pdf")])
        let everything = try await files.perform("ListFolder", ["path": .string(files.folder.path)])
        #expect(everything.paths.count == 4)
        #expect(await files.failure("ListFolder", ["path": .string(files.path("b.txt"))]).contains("is a file, not a folder."))
    }

    @Test func copyRefusesToReplaceUnlessOverwriteIsSet() async throws {
        let files = try FilesHarness()
        try files.make("a.txt", "new")
        try files.make("b.txt", "old")
        let message = await files.failure("Copy", ["source": .string(files.path("a.txt")), "destination": .string(files.path("b.txt"))])
        #expect(message.contains("\(files.path("b.txt")) already exists (set overwrite: true to replace it)."))
        #expect(try files.text("b.txt") == "old")
        try await files.perform(
            "Copy", ["source": .string(files.path("a.txt")), "destination": .string(files.path("b.txt")), "overwrite": .bool(true)])
        #expect(try files.text("b.txt") == "new")
        #expect(try files.text("a.txt") == "new")
        try FileManager.default.createDirectory(atPath: files.path("into"), withIntermediateDirectories: true)
        let copied = try await files.perform("Copy", ["source": .string(files.path("a.txt")), "destination": .string(files.path("into"))])
        #expect(copied.paths == [files.path("into/a.txt")])
        #expect(try files.names() == ["a.txt", "b.txt", "into"])
    }

    @Test func copyCopiesAFolderWithItsContents() async throws {
        let files = try FilesHarness()
        try files.make("src/one.txt", "1")
        try files.make("src/deep/two.txt", "2")
        try await files.perform("Copy", ["source": .string(files.path("src")), "destination": .string(files.path("dst"))])
        #expect(try files.text("dst/deep/two.txt") == "2")
        let intoItself = await files.failure("Copy", ["source": .string(files.path("src")), "destination": .string(files.path("src/deep"))])
        #expect(intoItself.contains("it is the same item or inside it"))
    }

    @Test func moveRenamesAndMovesAcrossFileSystems() async throws {
        let files = try FilesHarness()
        try files.make("a.txt", "A")
        try await files.perform("Move", ["source": .string(files.path("a.txt")), "destination": .string(files.path("b.txt"))])
        #expect(!files.exists("a.txt"))
        #expect(try files.text("b.txt") == "A")
        // /dev/shm is a tmpfs: another file system than the temporary folder's, where there is one.
        let other = URL(fileURLWithPath: "/dev/shm/files-move-\(UUID().uuidString)")
        try #require(FileManager.default.isWritableFile(atPath: "/dev/shm"))
        defer { try? FileManager.default.removeItem(at: other) }
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try files.make("far/x.txt", "X")
        let moved = try await files.perform("Move", ["source": .string(files.path("far")), "destination": .string(other.path)])
        #expect(moved.paths == [other.appendingPathComponent("far").path])
        #expect(try String(contentsOf: other.appendingPathComponent("far/x.txt"), encoding: .utf8) == "X")
        #expect(!files.exists("far"))
    }

    @Test func moveRefusesToReplaceUnlessOverwriteIsSet() async throws {
        let files = try FilesHarness()
        try files.make("a.txt", "A")
        try files.make("b.txt", "B")
        let message = await files.failure("Move", ["source": .string(files.path("a.txt")), "destination": .string(files.path("b.txt"))])
        #expect(message.contains("\(files.path("b.txt")) already exists (set overwrite: true to replace it)."))
        #expect(try files.text("a.txt") == "A")
        #expect(try files.text("b.txt") == "B")
        try await files.perform(
            "Move", ["source": .string(files.path("a.txt")), "destination": .string(files.path("b.txt")), "overwrite": .bool(true)])
        #expect(try files.names() == ["b.txt"])
        #expect(try files.text("b.txt") == "A")
    }

    @Test func createFolderCreatesParentsAndAcceptsAnExistingFolder() async throws {
        let files = try FilesHarness()
        let made = try await files.perform("CreateFolder", ["path": .string(files.path("a/b/c"))])
        #expect(made.member("isDirectory") == .bool(true))
        try await files.perform("CreateFolder", ["path": .string(files.path("a/b/c"))])
        try files.make("plain", "x")
        #expect(
            await files.failure("CreateFolder", ["path": .string(files.path("plain/sub"))]).contains(
                "\(files.path("plain")) is a file, not a folder."))
    }

    @Test func deletePermanentlyRemovesAndAMissingPathIsNamed() async throws {
        let files = try FilesHarness()
        try files.make("gone/x.txt", "x")
        try await files.perform("Delete", ["path": .string(files.path("gone")), "permanently": .bool(true)])
        #expect(!files.exists("gone"))
        #expect(
            await files.failure("Delete", ["path": .string(files.path("gone")), "permanently": .bool(true)]).contains("There is no file or folder at")
        )
    }
}
