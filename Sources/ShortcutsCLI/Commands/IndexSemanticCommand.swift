import ArgumentParser
import Foundation
import SpotlightKit
import TextEmbedding

/// `shortcuts index semantic on|off|status [NAME]`: semantic search per index.
struct IndexSemanticCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "semantic",
        abstract: "Turn semantic search on or off for an index, or show how far its items are embedded.",
        discussion: """
            With semantic search on, every item's text is embedded by the installed text-embedding model \
            and stored in the index, and typed searches find items by meaning as well as by words. \
            `on` embeds the items now (a progress bar on a terminal); it can be stopped and run again, \
            and continues where it stopped. Later changes are embedded before each search.
            Examples:
              shortcuts index semantic on journal
              shortcuts index semantic status
              shortcuts index semantic off journal
            """)

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case on, off, status
    }

    @Argument(help: ArgumentHelp("on, off or status.", valueName: "action"))
    var action: Action

    @Argument(
        help: ArgumentHelp("The index (required for on and off; default for status: every index).", valueName: "name"),
        completion: .custom(ShellCompletions.indexes))
    var name: String?

    func validate() throws {
        if action != .status && name == nil { throw ValidationError("'semantic \(action.rawValue)' needs the name of an index") }
    }

    func run() async throws {
        let catalog = IndexSelection.catalog
        let names = try IndexSelection.names(name, in: catalog)
        do {
            switch action {
            case .on: try await turnOn(names[0], in: catalog)
            case .off:
                let index = try await catalog.open(names[0], preparingForSearch: false).index
                try await index.setSemanticSearch(enabled: false, embedder: nil)
                print("Semantic search is off for \(names[0]); its vectors are deleted and search matches words only.")
            case .status:
                var lines: [String] = []
                for name in names {
                    let index = try await catalog.open(name, preparingForSearch: false).index
                    lines.append(Self.statusLine(name, try await index.semanticIndexingProgress()))
                }
                print(lines.joined(separator: "\n"))
            }
        } catch let error as CommandLineError {
            throw error
        } catch {
            throw CommandLineError(error)
        }
    }

    private func turnOn(_ name: String, in catalog: SearchIndexCatalog) async throws {
        guard let embedder = try SemanticSearchSetup.embedder() else {
            throw CommandLineError(rendered: "error: no text-embedding model is installed\nhelp: \(SemanticSearchSetup.installHelp)")
        }
        let index = try await catalog.open(name).index
        try await index.setSemanticSearch(enabled: true, embedder: embedder)
        let bar = ProgressBar(label: "Embedding \(name)")
        let started = ContinuousClock.now
        do {
            try await index.embedPendingItems { progress in
                bar.update(IndexingProgress(completedCount: progress.embeddedCount, totalCount: progress.totalCount))
            }
            bar.finish()
        } catch {
            bar.finish()
            throw error
        }
        let elapsed = (ContinuousClock.now - started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        let progress = try await index.semanticIndexingProgress()
        let count = progress?.embeddedCount ?? 0
        print(
            "Semantic search is on for \(name): \(Count.of(count, "item")) embedded with \(embedder.identifier) "
                + "in \(String(format: "%.2f", seconds)) s")
    }

    static func statusLine(_ name: String, _ progress: SemanticIndexingProgress?) -> String {
        guard let progress else { return "\(name): semantic search off" }
        return "\(name): semantic search on, \(progress.embeddedCount) of \(Count.of(progress.totalCount, "item")) embedded"
    }
}
