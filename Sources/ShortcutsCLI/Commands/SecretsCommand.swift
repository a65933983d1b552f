import ArgumentParser
import Foundation
import IntentKit
import WorkflowKit

struct SecretsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secrets",
        abstract: "Store the secrets workflows read as ${secrets.NAME}.",
        discussion: """
            Secrets live in $SHORTCUTS_HOME/secrets.json, readable by you alone (mode 0600); the file is refused, by these \
            commands and by runs, when other users can read or change it (fix: chmod 600 FILE). A name is made of letters, \
            digits and '_', starting with a letter or '_' (\(SecretStore.namePattern)). Every stored value is masked as *** in \
            what runs write: shown text, output, traces, the run history (runs show), errors and the daemon's log. A value \
            shorter than \(SecretMask.shortestMaskedInside) characters is masked only where it is a whole value, not inside longer text.
            Example: printf %s "$TOKEN" | shortcuts secrets set GITHUB_TOKEN
            """,
        subcommands: [SetSecret.self, List.self, Remove.self],
        defaultSubcommand: List.self)

    struct SetSecret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Store a secret, replacing its value if it exists.",
            discussion: """
                On a terminal the value is asked for without showing it; otherwise it is read from standard input, without \
                one final line break. An empty value is refused.
                Example: shortcuts secrets set GITHUB_TOKEN < token.txt
                """)

        @Argument(
            help: ArgumentHelp("The secret's name, such as GITHUB_TOKEN.", valueName: "name"),
            completion: .custom(ShellCompletions.secrets))
        var name: String

        func run() async throws {
            let store = SecretStore.standard()
            try SecretsCommand.check(name)
            _ = try SecretsCommand.secrets(of: store)
            let value = try SecretValueInput.read(name: name)
            let replaced: Bool
            do {
                replaced = try store.set(value, named: name)
            } catch {
                throw CommandLineError(error)
            }
            print("\(replaced ? "Replaced" : "Stored") secret '\(name)' in \(store.url.path).")
            if value.count < SecretMask.shortestMaskedInside {
                CommandOutput.current.writeError(
                    Data(
                        ("note: a value shorter than \(SecretMask.shortestMaskedInside) characters is masked only where it is a whole value, "
                            + "not inside longer text\n").utf8))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the stored secrets' names and when each was set (never their values).",
            discussion: "With --json: an array of {name, setAt}.")

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run() async throws {
            let secrets = try SecretsCommand.secrets(of: SecretStore.standard()).values.sorted { $0.name < $1.name }
            if json {
                let items = secrets.map { IntentValue.dictionary(["name": .string($0.name), "setAt": .string($0.setAt.formatted(.iso8601))]) }
                print(IntentValue.list(items).jsonText)
                return
            }
            guard !secrets.isEmpty else {
                print("No secrets stored. `\(Installation.shared.commandName) secrets set NAME` stores one.")
                return
            }
            Table.print([["NAME", "SET"]] + secrets.map { [$0.name, $0.setAt.formatted(.iso8601)] })
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a stored secret.")

        @Argument(
            help: ArgumentHelp("The secret's name.", valueName: "name"),
            completion: .custom(ShellCompletions.secrets))
        var name: String

        func run() async throws {
            let store = SecretStore.standard()
            do {
                try store.remove(named: name)
            } catch {
                var report = CommandLineError(error)
                if case .unknownName = error { report.argumentIndex = SecretsCommand.argumentIndex(of: name) }
                throw report
            }
            print("Removed secret '\(name)'.")
        }
    }

    /// The stored secrets, or the store's problem worded for the command line.
    static func secrets(of store: SecretStore) throws -> [String: SecretStore.Secret] {
        do {
            return try store.secrets()
        } catch {
            throw CommandLineError(error)
        }
    }

    /// Refuses a name that does not follow the pattern, pointing at it (a usage error).
    static func check(_ name: String) throws {
        guard SecretStore.isValidName(name) else {
            var report = CommandLineError(SecretStoreError.invalidName(name))
            report.exitCode = 64
            report.argumentIndex = argumentIndex(of: name)
            throw report
        }
    }

    /// The position of the last argument equal to `name`, to draw a caret under it.
    static func argumentIndex(of name: String) -> Int? {
        Installation.shared.arguments.lastIndex(of: name)
    }
}
