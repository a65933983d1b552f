import ArgumentParser
import Clockwork
import Foundation
import SpotlightKit
import TextEmbedding

/// `shortcuts index semantic on|off|status [NAME]`: semantic search per index.
struct IndexSemanticCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "semantic",
        abstract: "Turn semantic search on or off for an index, or show how far its items are embedded.",
        discussion: """
            With semantic search on, every item's text is embedded by an installed text-embedding model \
            (the default all-MiniLM-L6-v2 first, or the one --model names, such as multilingual-e5-small \
            for Japanese) and stored in the index, and typed searches find items by meaning as well as by \
            words; the index keeps using that model. \
            `on` embeds the items now (a progress bar on a terminal); it can be stopped and run again, \
            and continues where it stopped. Later changes are embedded before each search.
            Examples:
              shortcuts index semantic on journal
              shortcuts index semantic on journal --model multilingual-e5-small
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

    @Option(
        name: .long,
        help: ArgumentHelp("The installed model to embed with (on only; default: the default model).", valueName: "name"))
    var model: String?

    func validate() throws {
        if model != nil && action != .on { throw ValidationError("--model goes with 'semantic on'") }
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
        let loaded: (any TextEmbedder)?
        do {
            loaded = try SemanticSearchSetup.embedder(named: model)
        } catch ModelStoreError.notInstalled(let missing, _) {
            throw CommandLineError(
                rendered: "error: the model '\(missing)' is not installed\n"
                    + "help: install it with `\(Installation.shared.commandName) models install \(missing)`; "
                    + "`\(Installation.shared.commandName) models list` shows what is installed")
        }
        guard let embedder = loaded else {
            throw CommandLineError(rendered: "error: no text-embedding model is installed\nhelp: \(SemanticSearchSetup.installHelp)")
        }
        let index = try await catalog.open(name).index
        try await index.setSemanticSearch(enabled: true, embedder: embedder)
        let bar = ProgressBar(label: "Embedding \(name)")
        let started = TaskClock.current.now()
        do {
            try await index.embedPendingItems { progress in
                bar.update(IndexingProgress(completedCount: progress.embeddedCount, totalCount: progress.totalCount))
            }
            bar.finish()
        } catch {
            bar.finish()
            throw error
        }
        let elapsed = TaskClock.current.elapsed(since: started).components
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
