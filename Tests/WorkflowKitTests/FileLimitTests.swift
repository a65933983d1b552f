import Foundation
import IntentKit
import LibraryApp
import Testing

@testable import WorkflowKit

/// Files are refused by size before they are read, reads are bounded, and every error of a
/// file is reported in one pass.
@Suite("File limits and one-pass errors")
struct FileLimitTests {
    func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString)-\(name)")
    }

    func loadFailure(_ url: URL) -> DiagnosticError? {
        do {
            _ = try WorkflowLoader.load(contentsOf: url)
            return nil
        } catch {
            return error
        }
    }

    @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() throws {
        let url = temporaryFile("huge.yaml")
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data("steps: []\n".utf8)))
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 100_000_000)  // sparse: 100 MB that cost nothing to write
        try handle.close()
        let clock = ContinuousClock.now
        let error = try #require(loadFailure(url))
        #expect(ContinuousClock.now - clock < .milliseconds(200))
        #expect(error.diagnostics.map(summary) == ["1:1: the workflow file is too large: more than 16777216 bytes (16 MiB)"])
        #expect(error.diagnostics.first?.help == "split it into workflows that run each other with run:")
    }

    @Test func aFileAtTheLimitIsRead() throws {
        let url = temporaryFile("limit.yaml")
        var text = "steps:\n  - show: hi\n"
        text += String(repeating: "#", count: WorkflowLoader.maximumFileSize - text.utf8.count - 1) + "\n"
        try text.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try WorkflowLoader.load(contentsOf: url).steps.count == 1)
    }

    @Test func aStreamPastTheLimitIsCutThere() throws {
        // A pipe reports no size, as a growing file may not either: the read stops past the limit.
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (reading, writing) = (ends[0], ends[1])
        // 32 KiB past the limit: what the reader leaves unread fits in the pipe, so the writer ends.
        let total = WorkflowLoader.maximumFileSize + 32 * 1024
        let writer = Thread {
            let chunk = [UInt8](repeating: UInt8(ascii: "#"), count: 64 * 1024)
            var written = 0
            while written < total {
                let count = chunk.withUnsafeBytes { write(writing, $0.baseAddress, min($0.count, total - written)) }
                guard count > 0 else { break }
                written += count
            }
            close(writing)
        }
        writer.start()
        defer { close(reading) }
        let error = try #require(loadFailure(URL(fileURLWithPath: "/dev/fd/\(reading)")))
        #expect(error.diagnostics.map(\.message) == ["the workflow file is too large: more than 16777216 bytes (16 MiB)"])
    }

    @Test func aDeviceIsRefusedBeforeItIsRead() throws {
        let error = try #require(loadFailure(URL(fileURLWithPath: "/dev/zero")))
        #expect(error.diagnostics.map(\.message) == ["'/dev/zero' is a character device, not a workflow file"])
    }

    @Test func foldersAndMissingFilesSayWhy() throws {
        let folder = try #require(loadFailure(FileManager.default.temporaryDirectory))
        #expect(folder.diagnostics.first?.message.hasSuffix("is a folder, not a workflow file") == true)
        let missing = try #require(loadFailure(temporaryFile("missing.yaml")))
        #expect(missing.diagnostics.map(\.message) == ["cannot read the workflow file: No such file or directory"])
    }

    @Test func loadingAndValidationErrorsComeInOnePass() throws {
        let text = """
            input:
              count: { type: Int, defualt: 3 }
            steps:
              - id: added
                perform: Library.AddBok
                with: { title: Emma }
              - id: broken
                show: hi
                colour: red
              - show: ${broken} ${added} ${undefinedName}
              - perform: Library.AddBook
                with: { titel: Emma }
            """
        let validator = WorkflowValidator(catalog: IntentCatalog(apps: [LibraryApp.app]), isHeadless: false)
        do {
            _ = try WorkflowLoader.load(text: text, fileName: "mixed.yaml")
            Issue.record("loaded")
        } catch {
            #expect(error.loadedPart?.isPartial == true)
            let all = error.addingDiagnostics(of: validator.check)
            #expect(
                all.diagnostics.map(summary) == [
                    "2:23: unknown key 'defualt' in input 'count'",
                    "5:14: unknown intent 'Library.AddBok'",
                    "9:5: unknown key 'colour' in 'show' step",
                    "12:13: unknown parameter 'titel' for intent 'Library.AddBook'"
                ])
            #expect(all.rendered().contains("help: did you mean 'Library.AddBook'?"))
        }
    }
}
