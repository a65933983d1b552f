import BuiltInApps
import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import Testing

/// `saveTo` streams a body into a file that appears whole or not at all.
@Suite struct GetContentsOfURLSaveTests {
    let server: LocalHTTPServer
    let folder: URL
    static let report = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    init() throws {
        server = try LocalHTTPServer(routes: [
            "/report.bin": { _ in .bytes(Self.report) },
            "/missing": { _ in .status(404, "gone") },
            "/hang": { _ in .never }
        ])
        folder = try TemporaryFolder.make(prefix: "web-save")
    }

    @Test func theBodyIsSavedAndTheFileReturned() async throws {
        let path = folder.appendingPathComponent("report.bin").path
        let value = try await WebTesting.fetch(["url": .url(server.url("/report.bin")), "saveTo": .string(path)])
        guard case .file(let file) = value else {
            Issue.record("expected a file, got \(value)")
            return
        }
        #expect(file.fileURL.path == path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.report)
        #expect(try leftovers() == ["report.bin"])
    }

    @Test func aSavedFileReplacesTheOldOneAndFullNamesIt() async throws {
        let path = folder.appendingPathComponent("report.bin").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let full = try await WebTesting.fetch(["url": .url(server.url("/report.bin")), "saveTo": .string(path), "response": .string("full")])
        #expect(full["status"] == .int(200))
        #expect(full["body"] == .file(IntentFile(fileURL: URL(fileURLWithPath: path))))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.report)
    }

    @Test func aFailedFetchLeavesTheOldFileWhole() async throws {
        let path = folder.appendingPathComponent("report.bin").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let missing = try await WebTesting.failure(["url": .url(server.url("/missing")), "saveTo": .string(path)])
        #expect(missing.contains("answered 404 Not Found: gone"))
        let hung = try await WebTesting.failure(["url": .url(server.url("/hang")), "saveTo": .string(path), "timeout": .double(0.3)])
        #expect(hung.contains("within 0.3 seconds"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try leftovers() == ["report.bin"])
    }

    @Test func aMissingFolderOrAFolderIsRefusedBeforeAnyRequest() async throws {
        let nowhere = folder.appendingPathComponent("no/such/folder/report.bin").path
        let missing = try await WebTesting.failure(["url": .url(server.url("/report.bin")), "saveTo": .string(nowhere)])
        #expect(missing == "cannot save to \(nowhere): the folder \(folder.path)/no/such/folder does not exist")
        let intoFolder = try await WebTesting.failure(["url": .url(server.url("/report.bin")), "saveTo": .string(folder.path)])
        #expect(intoFolder == "cannot save to \(folder.path): it is a folder; give a file path")
        #expect(server.requests.isEmpty)
    }

    @Test(.enabled(if: getuid() != 0, "root may write into a read-only folder"))
    func aFolderWithoutWritePermissionSaysSo() async throws {
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o555])
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
        let path = locked.appendingPathComponent("report.bin").path
        let message = try await WebTesting.failure(["url": .url(server.url("/report.bin")), "saveTo": .string(path)])
        #expect(message == "cannot save to \(path): permission denied in \(locked.path)")
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
}
