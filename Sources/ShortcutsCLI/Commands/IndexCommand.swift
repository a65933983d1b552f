import ArgumentParser
import Clockwork
import Foundation
import IntentKit
import SpotlightKit

struct IndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Show, rebuild, delete or reindex the search indexes.",
        discussion: """
            The indexes are those the installed apps keep and the index files in $SHORTCUTS_HOME/indexes. \
            Deleting an index never touches the app's data; indexing stays off until the index is rebuilt.
            """,
        subcommands: [
            IndexStatusCommand.self, IndexRebuildCommand.self, IndexDeleteCommand.self, IndexReindexCommand.self,
            IndexSemanticCommand.self
        ])
}

/// The index names a command acts on: the one given (checked), or all of them.
enum IndexSelection {
    static func names(_ name: String?, in catalog: SearchIndexCatalog) throws -> [String] {
        guard let name else { return catalog.indexNames }
        guard catalog.indexNames.contains(name) else {
            let position = Installation.shared.arguments.lastIndex(of: name)
            throw CommandLineError(SpotlightError.unknownIndex(name: name, known: catalog.indexNames), argument: position)
        }
        return [name]
    }

    static var catalog: SearchIndexCatalog { SearchIndexCatalog(intents: Installation.shared.catalog) }
}

struct IndexStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show each index: items per domain, vocabulary size, last client state and history token.")

    @Argument(help: ArgumentHelp("The index (default: every index).", valueName: "name"), completion: .custom(ShellCompletions.indexes))
    var name: String?

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
        let catalog = IndexSelection.catalog
        var statuses: [SearchIndexStatus] = []
        for name in try IndexSelection.names(name, in: catalog) {
            do {
                statuses.append(try await catalog.status(ofIndexNamed: name))
            } catch {
                throw CommandLineError(error)
            }
        }
        print(json ? Self.json(statuses) : statuses.map(Self.text).joined(separator: "\n\n"))
    }

    static func text(_ status: SearchIndexStatus) -> String {
        let command = Installation.shared.commandName
        var rows: [(String, String)] = []
        rows.append(("file", status.path))
        if let off = status.isIndexingSwitchedOff {
            rows.append(("indexing", off ? "off (deleted; `\(command) index rebuild \(status.name)` restores it)" : "on"))
        }
        rows.append(("items", String(status.itemCount)))
        let domains = status.itemCountsByDomain.sorted { $0.key < $1.key }
        let domainWidth = domains.map { max($0.key.count, "(no domain)".count) }.max() ?? 0
        let domainRows = domains.map { domain, count in
            "    " + (domain.isEmpty ? "(no domain)" : domain).padding(toLength: domainWidth, withPad: " ", startingAt: 0) + "  \(count)"
        }
        var after: [(String, String)] = []
        after.append(("vocabulary", Count.of(status.vocabularySize, "word")))
        after.append(("client state", status.lastClientStateDescription ?? "(none)"))
        after.append(("history token", status.historyToken.map(String.init) ?? "(none)"))
        if let pending = status.pendingChangeCount { after.append(("pending changes", String(pending))) }
        let width = (rows + after).map(\.0.count).max() ?? 0
        func line(_ row: (String, String)) -> String {
            "  " + (row.0 + ":").padding(toLength: width + 1, withPad: " ", startingAt: 0) + "  " + row.1
        }
        let header = status.name + (status.appName.map { " (\($0))" } ?? "")
        return ([header] + rows.map(line) + domainRows + after.map(line)).joined(separator: "\n")
    }

    static func json(_ statuses: [SearchIndexStatus]) -> String {
        IntentValue.list(
            statuses.map { status in
                var entry: [String: IntentValue] = [
                    "name": .string(status.name),
                    "path": .string(status.path),
                    "itemCount": .int(status.itemCount),
                    "itemCountsByDomain": .dictionary(status.itemCountsByDomain.mapValues(IntentValue.int)),
                    "vocabularySize": .int(status.vocabularySize)
                ]
                entry["app"] = status.appName.map(IntentValue.string) ?? .null
                entry["lastClientState"] = status.lastClientStateDescription.map(IntentValue.string) ?? .null
                entry["historyToken"] = status.historyToken.map { .int(Int($0)) } ?? .null
                entry["pendingChangeCount"] = status.pendingChangeCount.map(IntentValue.int) ?? .null
                entry["indexingSwitchedOff"] = status.isIndexingSwitchedOff.map(IntentValue.bool) ?? .null
                return .dictionary(entry)
            }
        ).jsonText
    }
}

struct IndexRebuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Switch indexing on and index the app's data again (a progress bar on a terminal).")

    @Argument(help: ArgumentHelp("The index (default: every index an app keeps).", valueName: "name"), completion: .custom(ShellCompletions.indexes))
    var name: String?

    func run() async throws {
        let catalog = IndexSelection.catalog
        for name in try IndexSelection.names(name, in: catalog) {
            guard catalog.appIndex(named: name) != nil else {
                if self.name != nil { throw CommandLineError(SpotlightError.indexWithoutMaintainer(name: name)) }
                continue
            }
            let bar = ProgressBar(label: "Rebuilding \(name)")
            let started = TaskClock.current.now()
            do {
                guard let maintainer = try await catalog.open(name, preparingForSearch: false).maintainer else { continue }
                try await maintainer.rebuildIndex(progress: { bar.update($0) })
                bar.finish()
                let count = try await maintainer.searchableIndex.itemCount()
                let elapsed = TaskClock.current.elapsed(since: started).components
                let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
                print("Rebuilt \(name): \(Count.of(count, "item")) in \(String(format: "%.2f", seconds)) s")
            } catch {
                bar.finish()
                throw CommandLineError(error)
            }
        }
    }
}

struct IndexDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an index and switch its indexing off; the app's data stays.")

    @Argument(help: ArgumentHelp("The index.", valueName: "name"), completion: .custom(ShellCompletions.indexes))
    var name: String

    func run() async throws {
        let catalog = IndexSelection.catalog
        _ = try IndexSelection.names(name, in: catalog)
        do {
            let opened = try await catalog.open(name, preparingForSearch: false)
            let count = try await opened.index.itemCount()
            if let maintainer = opened.maintainer, let app = opened.app {
                try await maintainer.switchIndexingOff()
                print("Deleted the index \(name) (\(Count.of(count, "item"))); the data of the \(app.name) app is untouched.")
                print("Indexing is off until `\(Installation.shared.commandName) index rebuild \(name)`.")
            } else {
                try await opened.index.deleteAllSearchableItems()
                print("Deleted \(count == 1 ? "the 1 item" : "the \(count) items") of the index \(name).")
            }
        } catch {
            throw CommandLineError(error)
        }
    }
}

struct IndexReindexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reindex",
        abstract: "Ask the app to index items again: these identifiers, or all of them.",
        discussion: "Identifiers are the items' unique identifiers, as `shortcuts search --json` shows them; items whose data is gone are deleted.")

    @Argument(help: ArgumentHelp("The index.", valueName: "name"), completion: .custom(ShellCompletions.indexes))
    var name: String

    @Argument(help: ArgumentHelp("Item identifiers (default: every item).", valueName: "identifier"))
    var identifiers: [String] = []

    func run() async throws {
        let catalog = IndexSelection.catalog
        _ = try IndexSelection.names(name, in: catalog)
        guard catalog.appIndex(named: name) != nil else { throw CommandLineError(SpotlightError.indexWithoutMaintainer(name: name)) }
        do {
            guard let maintainer = try await catalog.open(name, preparingForSearch: false).maintainer else { return }
            if try await maintainer.isIndexingSwitchedOff() {
                throw CommandLineError("indexing of \(name) is off", help: ["`\(Installation.shared.commandName) index rebuild \(name)` turns it on"])
            }
            if identifiers.isEmpty {
                try await maintainer.reindexAll()
                print("Reindexed \(name): \(Count.of(try await maintainer.searchableIndex.itemCount(), "item"))")
                return
            }
        } catch {
            throw CommandLineError(error)
        }
        let report: ReindexReport
        do {
            report = try await catalog.reindex(identifiers: identifiers, inIndexNamed: name)
        } catch {
            throw CommandLineError(error)
        }
        if !report.reindexed.isEmpty {
            print("Reindexed \(Count.of(report.reindexed.count, "item")) of \(name): " + report.reindexed.joined(separator: ", "))
        }
        if !report.deleted.isEmpty {
            print("Deleted \(Count.of(report.deleted.count, "item")) of \(name) whose data is gone: " + report.deleted.joined(separator: ", "))
        }
        if !report.unknown.isEmpty {
            let message =
                "\(report.unknown.count == 1 ? "no item" : "no items") of \(name) named " + report.unknown.map { "'\($0)'" }.joined(separator: ", ")
                + "\nhelp: `\(Installation.shared.commandName) search --index \(name) --json` shows the items' identifiers"
            CommandOutput.current.writeError(Data(((report.foundAny ? "warning: " : "error: ") + message + "\n").utf8))
        }
        if !report.foundAny { throw ExitCode.failure }
    }
}

/// A count with its noun, singular for one: `1 item`, `3 items`.
enum Count {
    static func of(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }
}
