import Foundation
import ShortcutsSystemTestSupport
import Testing

@testable import BuiltInApps

@Suite struct TrashTests {
    @Test func aTrashedFileGoesToFilesWithAnInfoFileAndNamesDoNotCollide() throws {
        let files = try FilesHarness()
        let trash = Trash(folder: files.folder.appendingPathComponent("data/Trash"))
        try files.make("work/report 1.txt", "first")
        let first = try trash.put(URL(fileURLWithPath: files.path("work/report 1.txt")), date: Date(timeIntervalSince1970: 0))
        try files.make("work/report 1.txt", "second")
        let second = try trash.put(URL(fileURLWithPath: files.path("work/report 1.txt")))
        #expect(first.lastPathComponent == "report 1.txt")
        #expect(second.lastPathComponent == "report 1.2.txt")
        #expect(try String(contentsOf: second, encoding: .utf8) == "second")
        #expect(!files.exists("work/report 1.txt"))
        let info = try String(contentsOf: trash.infoFolder.appendingPathComponent("report 1.txt.trashinfo"), encoding: .utf8)
        let lines = info.split(separator: "\n").map(String.init)
        #expect(lines.first == "[Trash Info]")
        #expect(lines.contains("Path=" + files.path("work/report%201.txt").replacingOccurrences(of: " ", with: "%20")))
        #expect(lines.contains { $0.hasPrefix("DeletionDate=19") && $0.count == "DeletionDate=1970-01-01T00:00:00".count })
        #expect(FileManager.default.fileExists(atPath: trash.infoFolder.appendingPathComponent("report 1.2.txt.trashinfo").path))
    }

    @Test func anItemTrashedWithoutADateIsDatedByTheTrashsClock() throws {
        let files = try FilesHarness()
        // 2027-01-15 08:00:00 UTC: the 14th, 15th or 16th in the local time zone the date is written in.
        let trash = Trash(folder: files.folder.appendingPathComponent("data/Trash"), clock: ManualClock())
        try files.make("work/notes.txt", "notes")
        try trash.put(URL(fileURLWithPath: files.path("work/notes.txt")))
        let info = try String(contentsOf: trash.infoFolder.appendingPathComponent("notes.txt.trashinfo"), encoding: .utf8)
        #expect(info.split(separator: "\n").contains { $0.hasPrefix("DeletionDate=2027-01-1") })
    }

    @Test func anItemOnAnotherFileSystemIsCopiedIntoTheTrashThenRemoved() throws {
        let files = try FilesHarness()
        try #require(FileManager.default.isWritableFile(atPath: "/dev/shm"), "/dev/shm is a tmpfs beside the temporary folder")
        let other = URL(fileURLWithPath: "/dev/shm/files-trash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: other) }
        let trash = Trash(folder: other.appendingPathComponent("Trash"))
        try files.make("album/one.jpg", "1")
        let trashed = try trash.put(URL(fileURLWithPath: files.path("album")))
        #expect(try String(contentsOf: trashed.appendingPathComponent("one.jpg"), encoding: .utf8) == "1")
        #expect(!files.exists("album"))
        #expect(FileManager.default.fileExists(atPath: trash.infoFolder.appendingPathComponent("album.trashinfo").path))
    }

    @Test func theTrashIsUnderXDGDataHome() {
        #expect(Trash.home(environment: ["XDG_DATA_HOME": "/data/ada"]).folder.path == "/data/ada/Trash")
        #expect(Trash.home(environment: [:]).folder.path.hasSuffix("/.local/share/Trash"))
    }

    @Test func aMissingFileIsNotTrashed() throws {
        let files = try FilesHarness()
        let trash = Trash(folder: files.folder.appendingPathComponent("Trash"))
        #expect(throws: FilesApp.FileError.notFound(path: files.path("nothing"))) {
            try trash.put(URL(fileURLWithPath: files.path("nothing")))
        }
    }
}
