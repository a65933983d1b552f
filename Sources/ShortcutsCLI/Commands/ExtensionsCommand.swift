import ArgumentParser
import Clockwork
import Foundation
import IntentExtensions
import IntentKit

struct ExtensionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extensions",
        abstract: "Install programs whose intents, entities and enums join the installed apps.",
        discussion: """
            An extension is a program that speaks the extension protocol (JSON-RPC 2.0, one message per line, on its standard \
            input and output; Schemas/extension-protocol.md): the engine starts it as `PROGRAM extension serve` on first use \
            and keeps it for the run (the daemon: until it has been idle for --extension-idle-timeout). Every tool built \
            with ShortcutsTool.main(apps:) is one; so is a script in any language. The list lives in \
            $SHORTCUTS_HOME/extensions.json with each program's metadata, read again when the program changes. Its standard \
            error goes to the log.
            Examples:
              shortcuts extensions add .build/debug/greeter
              shortcuts extensions add Examples/Pantry/pantry.py --name Pantry
              shortcuts extensions list
              shortcuts perform Greeter.Greet name=Ada
            """,
        subcommands: [Add.self, List.self, Check.self, Remove.self],
        defaultSubcommand: List.self)

    static var registry: ExtensionRegistry { ExtensionRegistry(home: ShortcutsHome.directory()) }

    static func entries() throws -> [ExtensionRegistry.Entry] {
        do {
            return try registry.load()
        } catch {
            throw CommandLineError("\(error)", help: ["fix or delete the file; `\(Installation.shared.commandName) extensions add` writes it again"])
        }
    }

    static func save(_ entries: [ExtensionRegistry.Entry]) throws {
        do {
            try registry.save(entries)
        } catch {
            throw CommandLineError("\(error)")
        }
    }

    static func summary(of app: AppMetadata.App) -> String {
        func count(_ number: Int, _ one: String, _ many: String) -> String { "\(number) \(number == 1 ? one : many)" }
        return "\(app.name): \(count(app.intents.count, "intent", "intents")), \(count(app.entities.count, "entity", "entities")), "
            + count(app.enums.count, "enum", "enums")
    }

    static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.1f ms", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install an extension: start it once, read what it declares, remember it.",
            discussion: """
                The program is started as `PATH extension serve` and asked `initialize`; its apps must not have the name of an \
                installed app. The path is kept as given (made absolute), so a link that is later pointed at a new build keeps \
                working; the metadata is read again whenever the program changes.
                Examples:
                  shortcuts extensions add .build/debug/greeter
                  shortcuts extensions add ~/bin/pantry.py --name Pantry
                """)

        @Argument(help: ArgumentHelp("The extension's program.", valueName: "path"), completion: .file())
        var path: String

        @Option(name: .long, help: ArgumentHelp("The name to install it under (default: its app's name).", valueName: "name"))
        var name: String?

        func run() async throws {
            let executable = URL(fileURLWithPath: HomeFolder.expandingTilde(path)).standardizedFileURL.path
            guard FileManager.default.fileExists(atPath: executable) else {
                throw CommandLineError("no such file: \(executable)", argumentIndex: Installation.shared.arguments.firstIndex(of: path))
            }
            guard FileManager.default.isExecutableFile(atPath: executable) else {
                throw CommandLineError("\(executable) is not executable", help: ["chmod +x \(executable)"])
            }
            var entries = try ExtensionsCommand.entries()
            if let name, let taken = entries.first(where: { $0.name == name }) {
                throw CommandLineError(
                    "\(ExtensionRegistryError.nameTaken(name: name, executable: taken.executable))",
                    help: ["`\(Installation.shared.commandName) extensions remove \(name)` first, or choose another --name"])
            }
            let provisional = name ?? URL(fileURLWithPath: executable).deletingPathExtension().lastPathComponent
            let handshake: ExtensionHandshake
            do {
                handshake = try await ExtensionHandshake.perform(name: provisional, executable: executable)
            } catch {
                throw CommandLineError("\(error)", help: ["`\(executable) extension serve` must speak the extension protocol"])
            }
            let apps = handshake.metadata.apps
            guard !apps.isEmpty else { throw CommandLineError("extension \(provisional) declares no app") }
            let chosen = name ?? (apps.count == 1 ? apps[0].name : provisional)
            if let taken = entries.first(where: { $0.name == chosen }) {
                throw CommandLineError(
                    "\(ExtensionRegistryError.nameTaken(name: chosen, executable: taken.executable))",
                    help: ["`\(Installation.shared.commandName) extensions remove \(chosen)` first, or choose another --name"])
            }
            let installedElsewhere = Dictionary(
                entries.flatMap { entry in entry.metadata.apps.map { ($0.name, "extension \(entry.name)") } }, uniquingKeysWith: { first, _ in first }
            )
            for app in apps {
                if let owner = installedElsewhere[app.name] {
                    throw CommandLineError("\(ExtensionRegistryError.appNameTaken(app: app.name, owner: owner))")
                }
                if Installation.shared.catalog.apps.contains(where: { $0.name == app.name }) {
                    throw CommandLineError(
                        "\(ExtensionRegistryError.appNameTaken(app: app.name, owner: "built into \(Installation.shared.commandName)"))")
                }
            }
            let fingerprint: ExecutableFingerprint
            do {
                fingerprint = try ExecutableFingerprint(path: executable, name: chosen)
            } catch {
                throw CommandLineError("\(error)")
            }
            entries.append(
                ExtensionRegistry.Entry(
                    name: chosen, executable: executable, fingerprint: fingerprint, checked: TaskClock.current.now(), metadata: handshake.metadata)
            )
            try ExtensionsCommand.save(entries)
            print("Added extension \(chosen) (\(executable)):")
            for app in apps {
                print("  \(ExtensionsCommand.summary(of: app))")
                for intent in app.intents { print("    \(intent.name)  \(intent.title)") }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the installed extensions with their apps and health.",
            discussion: """
                The health line says when the metadata was last read and whether the program is still there and unchanged \
                (a changed program is read again on next use).
                With --json: an array of {name, executable, checked, program: "unchanged"|"changed"|"broken"|"missing", apps: [{name, \
                intents, entities, enums}]}.
                Example: shortcuts extensions list --json | jq '.[].apps[].intents'
                """)

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run() async throws {
            let entries = try ExtensionsCommand.entries()
            func state(_ entry: ExtensionRegistry.Entry) -> String {
                guard let current = try? ExecutableFingerprint(path: entry.executable) else { return "missing" }
                if current == entry.fingerprint { return "unchanged" }
                return entry.failure?.fingerprint == current ? "broken" : "changed"
            }
            if json {
                let items = entries.map { entry -> IntentValue in
                    .dictionary([
                        "name": .string(entry.name), "executable": .string(entry.executable), "checked": .string(entry.checked.formatted(.iso8601)),
                        "program": .string(state(entry)),
                        "apps": .list(
                            entry.metadata.apps.map { app in
                                .dictionary([
                                    "name": .string(app.name), "intents": .list(app.intents.map { .string($0.name) }),
                                    "entities": .list(app.entities.map { .string($0.name) }), "enums": .list(app.enums.map { .string($0.name) })
                                ])
                            })
                    ])
                }
                print(IntentValue.list(items).jsonText)
                return
            }
            guard !entries.isEmpty else {
                print("No extension installed. `\(Installation.shared.commandName) extensions add PATH` installs one.")
                return
            }
            for entry in entries {
                print("\(entry.name)  \(entry.executable)")
                for app in entry.metadata.apps {
                    print("  \(ExtensionsCommand.summary(of: app))")
                    for intent in app.intents { print("    \(intent.name)  \(intent.title)") }
                }
                let health =
                    switch state(entry) {
                    case "unchanged": "program present and unchanged"
                    case "changed": "program changed since; its metadata is read again on next use"
                    case "broken":
                        "program changed and cannot be read: \(entry.failure?.reason ?? "")\n  fix it, then "
                            + "`\(Installation.shared.commandName) extensions check \(entry.name)`"
                    default: "program missing: `\(Installation.shared.commandName) extensions remove \(entry.name)` or reinstall it"
                    }
                print("  checked \(entry.checked.formatted(.iso8601)); \(health)")
            }
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start an extension, read its metadata, stop it, and say how long each took.",
            discussion: """
                Exit 1 with the reason when it cannot start, does not answer, or breaks the protocol. Metadata that changed is \
                saved.
                Example: shortcuts extensions check Greeter
                """)

        @Argument(help: ArgumentHelp("The extension's name.", valueName: "name"), completion: .custom(ShellCompletions.extensions))
        var name: String

        func run() async throws {
            var entries = try ExtensionsCommand.entries()
            let entry: ExtensionRegistry.Entry
            do {
                entry = try ExtensionsCommand.registry.entry(named: name, in: entries)
            } catch {
                throw CommandLineError("\(error)", argumentIndex: Installation.shared.arguments.lastIndex(of: name))
            }
            let handshake: ExtensionHandshake
            do {
                handshake = try await ExtensionHandshake.perform(name: entry.name, executable: entry.executable)
            } catch {
                throw CommandLineError("extension \(entry.name) failed its check: \(error)")
            }
            print("\(entry.name)  \(entry.executable)")
            print(
                "  started in \(ExtensionsCommand.milliseconds(handshake.startTime)), answered initialize in "
                    + "\(ExtensionsCommand.milliseconds(handshake.initializeTime)), stopped in \(ExtensionsCommand.milliseconds(handshake.shutdownTime))"
            )
            for app in handshake.metadata.apps { print("  \(ExtensionsCommand.summary(of: app))") }
            if let index = entries.firstIndex(where: { $0.name == entry.name }), let fingerprint = try? ExecutableFingerprint(path: entry.executable)
            {
                let changed = entries[index].metadata != handshake.metadata
                entries[index].metadata = handshake.metadata
                entries[index].fingerprint = fingerprint
                entries[index].checked = TaskClock.current.now()
                entries[index].failure = nil
                try ExtensionsCommand.save(entries)
                print(changed ? "  metadata changed: saved" : "  metadata unchanged")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Uninstall an extension (its program is left alone).",
            discussion: "Example: shortcuts extensions remove Greeter")

        @Argument(help: ArgumentHelp("The extension's name.", valueName: "name"), completion: .custom(ShellCompletions.extensions))
        var name: String

        func run() async throws {
            var entries = try ExtensionsCommand.entries()
            do {
                _ = try ExtensionsCommand.registry.entry(named: name, in: entries)
            } catch {
                throw CommandLineError("\(error)", argumentIndex: Installation.shared.arguments.lastIndex(of: name))
            }
            entries.removeAll { $0.name == name }
            try ExtensionsCommand.save(entries)
            print("Removed extension \(name).")
        }
    }
}
