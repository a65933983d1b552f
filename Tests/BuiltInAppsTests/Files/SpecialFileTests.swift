import Foundation
import IntentKit
import Testing

@testable import BuiltInApps

/// Every Files action refuses a FIFO, a device or a socket, naming its kind, and leaves it as it was.
@Suite struct SpecialFileTests {
    /// A FIFO in the test's folder, returned with its path.
    private func fifo(in files: FilesHarness, _ name: String = "pipe.yaml") throws -> String {
        let path = files.path(name)
        try #require(mkfifo(path, 0o600) == 0)
        return path
    }

    /// Whether the path is still a FIFO.
    private func isFIFO(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
    }

    @Test func readingAFIFOIsRefusedWithoutWaitingForAWriter() async throws {
        let files = try FilesHarness()
        let pipe = try fifo(in: files)
        let message = await files.failure("ReadFile", ["path": .string(pipe)])
        #expect(message.contains("Cannot read \(pipe): it is a FIFO (named pipe), not a regular file or folder"))
        #expect(message.contains("use Shell.RunCommand"))
    }

    @Test func writingOverAFIFOOrADeviceLeavesItInPlace() async throws {
        let files = try FilesHarness()
        let pipe = try fifo(in: files)
        for mode in ["overwrite", "append"] {
            let message = await files.failure("WriteFile", ["path": .string(pipe), "content": .string("x"), "mode": .string(mode)])
            #expect(message.contains("Cannot write \(pipe): it is a FIFO (named pipe)"))
            #expect(isFIFO(pipe))
        }
        // A link to a special file is followed, and refused the same way.
        let link = files.path("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pipe)
        #expect(await files.failure("WriteFile", ["path": .string(link), "content": .string("x")]).contains("it is a FIFO"))
        #expect(isFIFO(pipe))
        // A device node of its own, where this process may make one (as root): /dev/null's numbers.
        let device = files.path("null")
        if mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 {  // makedev(1, 3)
            let refused = await files.failure("WriteFile", ["path": .string(device), "content": .string("x")])
            #expect(refused.contains("Cannot write \(device): it is a character device"))
            var info = stat()
            #expect(lstat(device, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        }
        // /dev/null itself is only read from here: the check comes before any file is made.
        #expect(await files.failure("ReadFile", ["path": .string("/dev/null")]).contains("it is a character device"))
        #expect(
            await files.failure(
                "WriteFile", ["path": .string(files.path("out.txt")), "content": .file(IntentFile(fileURL: URL(fileURLWithPath: "/dev/zero")))]
            )
            .contains("Cannot read /dev/zero: it is a character device"))
    }

    @Test func copyMoveDeleteAndTrashRefuseSpecialFiles() async throws {
        let files = try FilesHarness()
        let pipe = try fifo(in: files)
        try files.make("a.txt", "A")
        let copied = await files.failure("Copy", ["source": .string(pipe), "destination": .string(files.path("copy"))])
        #expect(copied.contains("Cannot copy or move \(pipe): it is a FIFO"))
        let moved = await files.failure("Move", ["source": .string(pipe), "destination": .string(files.path("moved"))])
        #expect(moved.contains("Cannot copy or move \(pipe): it is a FIFO"))
        let replaced = await files.failure(
            "Copy", ["source": .string(files.path("a.txt")), "destination": .string(pipe), "overwrite": .bool(true)])
        #expect(replaced.contains("Cannot replace \(pipe): it is a FIFO"))
        let deleted = await files.failure("Delete", ["path": .string(pipe), "permanently": .bool(true)])
        #expect(deleted.contains("Cannot delete \(pipe): it is a FIFO"))
        #expect(isFIFO(pipe))
        #expect(throws: FilesApp.FileError.specialFile(path: pipe, kind: "a FIFO (named pipe)", operation: "move to the trash")) {
            try Trash(folder: files.folder.appendingPathComponent("Trash")).put(URL(fileURLWithPath: pipe))
        }
        #expect(isFIFO(pipe))
        #expect(try files.names() == ["a.txt", "pipe.yaml"])
    }

    @Test func aFolderHoldingAFIFOIsNotCopied() async throws {
        let files = try FilesHarness()
        try files.make("tree/a.txt", "A")
        try FileManager.default.createDirectory(atPath: files.path("tree/deep"), withIntermediateDirectories: true)
        _ = try fifo(in: files, "tree/deep/pipe")
        let message = await files.failure("Copy", ["source": .string(files.path("tree")), "destination": .string(files.path("copy"))])
        #expect(message.contains("Cannot copy \(files.path("tree/deep/pipe")): it is a FIFO"))
        #expect(!files.exists("copy"))
    }

    @Test func listingAFolderStillNamesItsSpecialFiles() async throws {
        let files = try FilesHarness()
        let pipe = try fifo(in: files)
        let listed = try await files.perform("ListFolder", ["path": .string(files.folder.path)])
        #expect(listed.paths == [pipe])
    }

    @Test func aFileLargerThanTheReadLimitIsRefusedBeforeItIsRead() async throws {
        let files = try FilesHarness()
        let path = files.path("huge.log")
        // A sparse file: its size is past the limit, its blocks are not on disk.
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
        try #require(descriptor >= 0)
        #expect(ftruncate(descriptor, off_t(FilesApp.ReadFile.sizeLimit + 1)) == 0)
        close(descriptor)
        let message = await files.failure("ReadFile", ["path": .string(path)])
        #expect(message.contains("Cannot read \(path): it is 67108865 bytes, more than the 64 MiB this action reads into memory"))
        #expect(throws: FilesApp.FileError.self) { try FilesApp.ReadFile.read(path, limit: 1024) }
        try files.make("small.txt", String(repeating: "a", count: 1024))
        #expect(try FilesApp.ReadFile.read(files.path("small.txt"), limit: 1024).count == 1024)
    }
}
