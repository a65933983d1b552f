import AutomationKit
import Foundation
import IntentKit
import SpotlightKit
import WorkflowKit

/// What the shell completes for arguments (bash, zsh and fish scripts from
/// `shortcuts --generate-completion-script SHELL` call back into the binary for these).
///
/// Each function takes the words of the command line, the index of the word being completed
/// and its prefix, and returns the candidates that start with the prefix.
///
/// ```sh
/// shortcuts perform Library.Ad<TAB>     # Library.AddBook
/// shortcuts run add<TAB>                # add-and-open, Workflows/add-and-open.yaml
/// ```
enum ShellCompletions {
    /// Workflow names in ./Workflows (file names without extension), and `.yaml` files below the
    /// folder the prefix names.
    @Sendable static func workflows(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let names = WorkflowFiles.all(in: URL(fileURLWithPath: WorkflowFiles.folderName))
            .map { $0.deletingPathExtension().lastPathComponent }
        return matching(prefix, names + workflowFiles(under: prefix))
    }

    /// Installed intents, as `App.Intent`.
    @Sendable static func intents(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(prefix, Installation.shared.catalog.allIntents.map(\.name))
    }

    /// Installed intents, and workflow files (for `view`).
    @Sendable static func intentsAndWorkflowFiles(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(prefix, Installation.shared.catalog.allIntents.map(\.name) + workflowFiles(under: prefix))
    }

    /// The search indexes: those the installed apps keep and the index files of the data folder.
    @Sendable static func indexes(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(prefix, SearchIndexCatalog(intents: Installation.shared.catalog).indexNames)
    }

    /// The templates `new --from` takes.
    @Sendable static func templates(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(prefix, WorkflowTemplate.all.map(\.name))
    }

    /// The automations of ./Workflows, by the names `automations run` accepts.
    @Sendable static func automations(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        var names: [String] = []
        for url in WorkflowFiles.all(in: URL(fileURLWithPath: WorkflowFiles.folderName)) {
            guard let workflow = try? WorkflowLoader.load(contentsOf: url), workflow.automation != nil else { continue }
            names.append(url.deletingPathExtension().lastPathComponent)
        }
        return matching(prefix, names)
    }

    /// The names of the stored secrets (never their values); none when the file cannot be used.
    @Sendable static func secrets(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(prefix, ((try? SecretStore.standard().secrets()) ?? [:]).keys.sorted())
    }

    /// The latest runs' ids, as `runs list` shows them (their first eight characters).
    @Sendable static func runs(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let history = try? RunHistory.shared(readOnly: true), let runs = try? history.recentRuns(limit: 50) else { return [] }
        return matching(prefix, runs.map { String($0.id.prefix(8)) })
    }

    /// The parameters of the intent named before them on the command line, as `name=`.
    @Sendable static func parameters(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        // `perform INTENT name=value…`: the intent is the first word after `perform` that is not an option.
        guard let perform = words.firstIndex(of: "perform"),
            let named = words[(perform + 1)...].first(where: { !$0.hasPrefix("-") }),
            let intent = try? Installation.shared.catalog.intent(named: named)
        else { return [] }
        // The words given already, but for the one being completed.
        let given = Set(words.enumerated().filter { $0.offset != index && $0.element.contains("=") }.map { String($0.element.prefix { $0 != "=" }) })
        return matching(prefix, intent.definition.parameters.map(\.name).filter { !given.contains($0) }.map { $0 + "=" })
    }

    /// The installed extensions' names.
    @Sendable static func extensions(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(prefix, ((try? ExtensionsCommand.registry.load()) ?? []).map(\.name))
    }

    /// The configured MCP servers' names.
    @Sendable static func mcpServers(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(prefix, ((try? MCPServersCommand.servers()) ?? []).map(\.name))
    }

    /// `.yaml` and `.yml` files in the folder a prefix names (the working directory by default),
    /// and its subfolders as `name/`.
    static func workflowFiles(under prefix: String) -> [String] {
        let folder = prefix.contains("/") ? String(prefix[..<(prefix.lastIndex(of: "/") ?? prefix.startIndex)]) + "/" : ""
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return entries.sorted().compactMap { entry in
            guard !entry.hasPrefix(".") else { return nil }
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + entry, isDirectory: &isFolder)
            if isFolder.boolValue { return folder + entry + "/" }
            return entry.hasSuffix(".yaml") || entry.hasSuffix(".yml") ? folder + entry : nil
        }
    }

    private static func matching(_ prefix: String, _ candidates: [String]) -> [String] {
        var seen = Set<String>()
        return candidates.filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }
    }
}
