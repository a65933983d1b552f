import Foundation
import IntentKit
import SpotlightKit
import Synchronization
import Testing

@testable import WorkflowKit

/// `search:` steps: loaded with their settings, validated against the installed entities and
/// indexes, and run to lists of entities.
@Suite("Search steps")
struct SearchStepTests {
    func validate(_ text: String, fixture: NotesFixture) throws -> [String] {
        let workflow = try WorkflowLoader.load(text: text, fileName: "search.yaml")
        return WorkflowValidator(catalog: fixture.catalog, search: fixture.search).validate(workflow).map { diagnostic in
            summary(diagnostic) + (diagnostic.help.map { " | help: \($0)" } ?? "")
        }
    }

    func run(_ text: String, fixture: NotesFixture) async throws -> (output: IntentValue, shown: [String]) {
        let workflow = try WorkflowLoader.load(text: text, fileName: "search.yaml")
        let found = try validate(text, fixture: fixture)
        #expect(found == [])
        let shown = ShownLines()
        let runner = WorkflowRunner(catalog: fixture.catalog, search: fixture.search, show: { shown.append($0) })
        let result = try await runner.run(workflow)
        return (result.output, shown.lines)
    }

    @Test func unknownKeysSuggestTheSearchSettings() {
        let found = diagnostics(loading: "steps:\n  - search: x\n    entiy: Notes.NoteEntity\n").map(summary)
        #expect(found == ["3:5: unknown key 'entiy' in 'search' step"])
        let help = diagnostics(loading: "steps:\n  - search: x\n    entiy: Notes.NoteEntity\n").first?.help
        #expect(help == "did you mean 'entity'?")
        #expect(
            diagnostics(loading: "steps:\n  - search: x\n    entity: Notes.\n").map(summary)
                == ["3:13: invalid entity name 'Notes.': expected 'App.Name' or 'Name'"])
    }

    @Test func mistakesAreLocatedWithSuggestions() throws {
        let fixture = try NotesFixture()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let text = """
            steps:
              - id: hits
                search: marsh
                entity: Notes.NoteEntty
              - search: marsh
                entity: Notes.FolderEntity
              - search: marsh
                index: note
              - id: typed
                search: marsh
                entity: NoteEntity
                limit: ${typed}
              - show: ${typed[0].titel}
              - perform: Notes.ReadNote
                with: { note: "${typed}" }
            """
        let found = try validate(text, fixture: fixture)
        #expect(
            found == [
                "4:13: unknown entity 'Notes.NoteEntty' | help: did you mean 'Notes.NoteEntity'?",
                "6:13: Notes.FolderEntity is not indexed, so it cannot be searched | help: indexed entities: Notes.NoteEntity",
                "8:12: unknown search index 'note' | help: did you mean 'notes'?",
                "12:14: 'typed' is not defined here | help: give a step `id: typed` or `set: typed` before this step",
                "13:22: NoteEntity has no property 'titel' | help: did you mean 'title'?",
                "15:20: parameter 'note' needs NoteEntity, but this value is [NoteEntity] | help: take one element, such as ${…[0]}, or repeat over the list"
            ])
    }

    @Test func resultsAreEntitiesThatFeedParameters() async throws {
        let fixture = try NotesFixture()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let (output, shown) = try await run(
            """
            steps:
              - id: hits
                search: marsh
                entity: Notes.NoteEntity
                limit: 5
              - show: "${hits.count}: ${hits[0].title}, ${hits[1].title}"
              - id: read
                perform: Notes.ReadNote
                with: { note: "${hits[0]}" }
              - id: lions
                search: "lion"
                index: notes
            output: ${lions}
            """, fixture: fixture)
        #expect(shown == ["2: Marsh birds, Crawdads"])
        guard case .list(let lions) = output, case .entity(let lion)? = lions.first else {
            Issue.record("expected a list of entities, got \(output)")
            return
        }
        #expect(lions.count == 1)
        #expect(lion.title == "Savanna")
        #expect(lion.typeName == "NoteEntity")
    }

    @Test func itemsThatAreNotEntitiesBecomeDictionaries() async throws {
        let fixture = try NotesFixture()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let loose = try SearchableIndex(
            name: "clippings", database: try SearchIndexCatalog.openIndexDatabase(named: "clippings", in: fixture.directory))
        var attributes = SearchableItemAttributeSet(contentType: .html)
        attributes.title = "Marsh restoration"
        attributes.keywords = ["wetlands"]
        try await loose.indexSearchableItems([SearchableItem(uniqueIdentifier: "clip-1", domainIdentifier: "web", attributeSet: attributes)])
        let (output, _) = try await run(
            """
            steps:
              - id: clips
                search: marsh
                index: clippings
            output: ${clips}
            """, fixture: fixture)
        guard case .list(let results) = output, case .dictionary(let clip)? = results.first else {
            Issue.record("expected a list of dictionaries, got \(output)")
            return
        }
        #expect(clip["id"] == .string("clip-1"))
        #expect(clip["title"] == .string("Marsh restoration"))
        #expect(clip["index"] == .string("clippings"))
        #expect(clip["keywords"] == .list([.string("wetlands")]))
        #expect(clip["contentType"] == .string("public.html"))
    }

    @Test func withoutASearchProviderSearchStepsAreLocatedErrors() async throws {
        let text = "steps:\n  - id: hits\n    search: marsh\n"
        let workflow = try WorkflowLoader.load(text: text, fileName: "search.yaml")
        let catalog = IntentCatalog(apps: [])
        var validator = WorkflowValidator(catalog: catalog)
        validator.search = nil
        #expect(validator.validate(workflow).map(summary) == ["3:5: this program cannot search: no search is installed"])
        var runner = WorkflowRunner(catalog: catalog)
        runner.search = nil
        await #expect(throws: WorkflowRunError.self) { try await runner.run(workflow) }
    }

    @Test func workflowKitKnowsNoSearchEngine() throws {
        let sources = Fixtures.packageRoot.appendingPathComponent("Sources/WorkflowKit")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("import SpotlightKit"), "\(file) imports SpotlightKit")
        }
        let manifest = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let workflowKitTarget = try #require(manifest.range(of: #"name: "WorkflowKit",\s*dependencies: \[[^\]]*\]"#, options: .regularExpression))
        #expect(!manifest[workflowKitTarget].contains("SpotlightKit"))
    }
}

/// Collects the lines a run shows.
final class ShownLines: Sendable {
    private let stored = Mutex<[String]>([])
    func append(_ line: String) { stored.withLock { $0.append(line) } }
    var lines: [String] { stored.withLock { $0 } }
}
