import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// `run:` reaches only workflow files inside the folder of the workflow that names it (or the
/// workflows folder), after following links; refusals are located and never show what the
/// refused file holds.
@Suite("Nested workflow confinement")
struct NestedWorkflowConfinementTests {
    /// `outer/secret.yaml` and `outer/secret.txt` (outside), `outer/inner/` holding the workflows.
    struct Folder {
        static let secret = "SECRET-LINE-7f3a"
        let outer: URL
        var inner: URL { outer.appendingPathComponent("inner") }

        init() throws {
            outer = FileManager.default.temporaryDirectory.appendingPathComponent("confinement-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: outer.appendingPathComponent("inner/sub"), withIntermediateDirectories: true)
            try "name: \(Self.secret)\nsteps:\n  - show: \(Self.secret)\n".write(
                to: outer.appendingPathComponent("secret.yaml"), atomically: true, encoding: .utf8)
            try "\(Self.secret): [\n".write(to: outer.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
            try "\(Self.secret) is not YAML: [\n".write(to: inner.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
            try "steps:\n  - show: sibling ran\noutput: sibling\n".write(
                to: inner.appendingPathComponent("sibling.yaml"), atomically: true, encoding: .utf8)
            try "steps:\n  - show: nested ran\noutput: nested\n".write(
                to: inner.appendingPathComponent("sub/nested.yaml"), atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(
                atPath: inner.appendingPathComponent("escape.yaml").path,
                withDestinationPath: outer.appendingPathComponent("secret.yaml").path)
            try FileManager.default.createSymbolicLink(
                atPath: inner.appendingPathComponent("text.yaml").path,
                withDestinationPath: inner.appendingPathComponent("notes.txt").path)
            try FileManager.default.createSymbolicLink(
                atPath: inner.appendingPathComponent("linked.yaml").path,
                withDestinationPath: inner.appendingPathComponent("sibling.yaml").path)
        }

        func workflow(running reference: String) throws -> Workflow {
            let url = inner.appendingPathComponent("main.yaml")
            try "steps:\n  - id: child\n    run: \(reference)\noutput: ${child}\n".write(to: url, atomically: true, encoding: .utf8)
            return try WorkflowLoader.load(contentsOf: url)
        }

        func remove() { try? FileManager.default.removeItem(at: outer) }
    }

    static let escapes = [
        "../secret.yaml", "../secret.txt", "../../etc/passwd", "../../../../../../../../../../etc/passwd", "/etc/passwd", "/etc/hostname",
        "/proc/self/environ", "escape.yaml", "text.yaml", "notes.txt", "sub/../../secret.yaml"
    ]

    @Test("validation refuses, located, without the file's content", arguments: escapes)
    func validationRefuses(_ reference: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let workflow = try folder.workflow(running: reference)
        let (diagnostics, sources) = WorkflowValidator(catalog: IntentCatalog(apps: [])).check(workflow)
        #expect(diagnostics.count == 1)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.location.line == 3)
        #expect(diagnostic.location.column == 10)
        #expect(["outside the folder", "not a workflow file", "no workflow file"].contains { diagnostic.message.contains($0) })
        let rendered = DiagnosticRenderer(sources: sources).render(diagnostics)
        #expect(!rendered.contains(Folder.secret))
        #expect(!rendered.contains("root:"))
        #expect(!rendered.contains("PATH="))
        #expect(sources.keys.sorted() == [workflow.fileName])
    }

    @Test("a run refuses, located, without the file's content", arguments: escapes)
    func runRefuses(_ reference: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let workflow = try folder.workflow(running: reference)
        let shown = ShownLines()
        do {
            _ = try await WorkflowRunner(catalog: IntentCatalog(apps: []), show: { shown.append($0) }).run(workflow)
            Issue.record("'\(reference)' ran")
        } catch let error as WorkflowRunError {
            #expect(error.diagnostic.location.line == 3)
            let rendered = error.rendered()
            #expect(!rendered.contains(Folder.secret))
            #expect(!rendered.contains("root:"))
            #expect(!rendered.contains("PATH="))
        }
        #expect(shown.lines.isEmpty)
    }

    @Test(
        "files inside the folder still run, through links that stay inside too",
        arguments: [("sibling.yaml", "sibling"), ("sibling", "sibling"), ("sub/nested.yaml", "nested"), ("linked.yaml", "sibling")])
    func insideRuns(_ reference: String, _ output: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let workflow = try folder.workflow(running: reference)
        #expect(WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow).isEmpty)
        let result = try await WorkflowRunner(catalog: IntentCatalog(apps: [])).run(workflow)
        #expect(result.output == .string(output))
    }

    @Test func loadingAFileThatIsNotAWorkflowShowsNoneOfIt() throws {
        let folder = try Folder()
        defer { folder.remove() }
        for url in [folder.outer.appendingPathComponent("secret.txt"), URL(fileURLWithPath: "/proc/self/environ")] {
            do {
                _ = try WorkflowLoader.load(contentsOf: url)
                Issue.record("\(url.path) loaded")
            } catch {
                let rendered = error.rendered()
                #expect(rendered.hasPrefix(url.path + ":1:1: error:"), "\(rendered)")
                #expect(!rendered.contains(Folder.secret))
                #expect(!rendered.contains("PATH="))
            }
        }
    }
}
