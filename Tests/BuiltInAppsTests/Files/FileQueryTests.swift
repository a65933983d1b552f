import Foundation
import IntentKit
import Testing

@testable import BuiltInApps

@Suite struct FileQueryTests {
    private func find(
        _ conditions: [PropertyCondition], mode: ComparatorMode = .and, sortedBy: [PropertySort] = [], limit: Int? = nil
    ) async throws -> [IntentValue] {
        try await EntityQueries.find(FilesApp.FileEntity.self, conditions: conditions, mode: mode, sortedBy: sortedBy, limit: limit)
    }

    private func condition(_ property: String, _ comparator: ComparatorKind, _ operands: IntentValue...) -> PropertyCondition {
        PropertyCondition(property: property, comparator: comparator, operands: operands)
    }

    @Test func findsTheFilesOfAFolderByModificationDateSortedAndLimited() async throws {
        let files = try FilesHarness()
        let now = Date()
        try files.make("a.tar", "aaaa", modified: now.addingTimeInterval(-10 * 86_400))
        try files.make("b.tar", "bb", modified: now.addingTimeInterval(-9 * 86_400))
        try files.make("c.tar", "c", modified: now.addingTimeInterval(-1 * 86_400))
        try files.make("sub/d.tar", "dddddd", modified: now.addingTimeInterval(-30 * 86_400))
        let old = try await find(
            [condition("folder", .equalTo, .string(files.folder.path)), condition("modified", .lessThan, .date(now.addingTimeInterval(-7 * 86_400)))],
            sortedBy: [PropertySort(property: "modified", order: .ascending)])
        #expect(old.paths == [files.path("a.tar"), files.path("b.tar")])
        let biggest = try await find(
            [condition("folder", .equalTo, .string(files.folder.path)), condition("isDirectory", .equalTo, .bool(false))],
            sortedBy: [PropertySort(property: "size", order: .descending)], limit: 2)
        #expect(biggest.paths == [files.path("a.tar"), files.path("b.tar")])
    }

    @Test func hasPrefixOnTheFolderSearchesTheWholeTree() async throws {
        let files = try FilesHarness()
        try files.make("top.txt", "1")
        try files.make("one/two/deep.txt", "2")
        try files.make("one/two/photo.JPG", "3")
        let texts = try await find([condition("folder", .hasPrefix, .string(files.folder.path)), condition("extension", .equalTo, .string("txt"))])
        #expect(texts.paths == [files.path("one/two/deep.txt"), files.path("top.txt")])
        let images = try await find([
            condition("folder", .hasPrefix, .string(files.folder.path)), condition("contentType", .hasPrefix, .string("image/"))
        ])
        #expect(images.paths == [files.path("one/two/photo.JPG")])
        let direct = try await find([condition("folder", .equalTo, .string(files.folder.path))], sortedBy: [PropertySort(property: "name")])
        #expect(direct.paths == [files.path("one"), files.path("top.txt")])
    }

    @Test func withoutAFolderTheFindSaysWhereToLook() async throws {
        await #expect(throws: FilesApp.FileError.noFolderToSearch) {
            try await find([condition("name", .equalTo, .string("x"))])
        }
    }

    @Test func aMissingFolderIsNamed() async throws {
        let files = try FilesHarness()
        await #expect(throws: FilesApp.FileError.notFound(path: files.path("nowhere"))) {
            try await find([condition("folder", .equalTo, .string(files.path("nowhere")))])
        }
    }

    @Test func aPathFindsItsFileByIdentifierAndText() async throws {
        let files = try FilesHarness()
        try files.make("notes.md", "# hi")
        let byID = try await FilesApp.FileQuery().entities(for: [files.path("notes.md"), files.path("missing")])
        #expect(byID.map(\.id) == [files.path("notes.md")])
        #expect(byID.first?.contentType == "text/markdown")
        let byText = try await FilesApp.FileQuery().entities(matching: files.path("notes.md"))
        #expect(byText.first?.name == "notes.md")
    }

    @Test func contentTypesComeFromTheExtension() {
        #expect(ContentType.of(extension: "PDF", isDirectory: false) == "application/pdf")
        #expect(ContentType.of(extension: "jpeg", isDirectory: false) == "image/jpeg")
        #expect(ContentType.of(extension: "txt", isDirectory: false) == "text/plain")
        #expect(ContentType.of(extension: "weird", isDirectory: false) == "application/octet-stream")
        #expect(ContentType.of(extension: "", isDirectory: true) == "inode/directory")
    }

    @Test func relativePathsResolveAgainstTheWorkflowFolderAndTildeIsHome() async {
        let base = URL(fileURLWithPath: "/srv/flows")
        #expect(FilePath.resolve("out/a.txt", relativeTo: base).path == "/srv/flows/out/a.txt")
        #expect(FilePath.resolve("../a.txt", relativeTo: base).path == "/srv/a.txt")
        #expect(FilePath.resolve("/etc/hosts", relativeTo: base).path == "/etc/hosts")
        // `~` is `$HOME` as the shell reads it, not the passwd entry's folder; `~user` is that user's.
        let home = ProcessEnvironment.$current.withValue(["HOME": "/tmp/elsewhere"]) {
            (
                FilePath.resolve("~/x").path, FilePath.resolve("~").path, FilePath.resolve("~root/y").path,
                FilePath.resolve("a/~/b", relativeTo: base).path
            )
        }
        #expect(home.0 == "/tmp/elsewhere/x")
        #expect(home.1 == "/tmp/elsewhere")
        #expect(home.2 == "/root/y")
        #expect(home.3 == "/srv/flows/a/~/b")
        let withoutHome = ProcessEnvironment.$current.withValue([:]) { FilePath.resolve("~/x").path }
        #expect(withoutHome == FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("x").standardizedFileURL.path)
        let inWorkflow = IntentExecution.$workingDirectory.withValue(base) { FilePath.resolve("b.txt").path }
        #expect(inWorkflow == "/srv/flows/b.txt")
    }
}
