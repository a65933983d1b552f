import ArgumentParser
import Clockwork
import Dashboard
import Foundation
import IntentKit
import Logging
import WorkflowKit

/// `--http ADDRESS`, `--token TOKEN` and `--token-secret NAME`: where the web dashboard listens
/// and the token that protects it, for `serve` and `daemon --http`.
struct DashboardOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where the web dashboard listens: HOST:PORT, such as 127.0.0.1:8080 (this machine only) or 0.0.0.0:8080 "
                + "(every network, which needs a token); port 0 picks a free port.", valueName: "address"))
    var http: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The token every page, /events and /metrics then need (Authorization: Bearer, or the sign-in form); at least "
                + "16 characters. Other users of the machine can read it in the process list: prefer --token-secret.",
            valueName: "token"))
    var token: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The stored secret whose value is the token (shortcuts secrets set NAME stores one).", valueName: "name"))
    var tokenSecret: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The largest body a webhook (POST /hooks/NAME) takes, such as 1MiB, 256KiB or 65536 (bytes); larger ones are refused with 413.",
            valueName: "size"))
    var webhookBodyLimit = "1MiB"

    func validate() throws {
        if token != nil, tokenSecret != nil { throw ValidationError("give the token once: --token or --token-secret, not both") }
        guard Self.bytes(webhookBodyLimit) != nil else {
            throw ValidationError("--webhook-body-limit '\(webhookBodyLimit)' is not a size such as 1MiB, 256KiB or 65536")
        }
    }

    /// A size written `65536`, `64KiB`, `1MiB` (or `KB`/`MB` for the same multiples of 1,024), from 1 byte to 1 GiB.
    static func bytes(_ text: String) -> Int? {
        let units: [(String, Int)] = [("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("KB", 1 << 10), ("MB", 1 << 20), ("GB", 1 << 30)]
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let (digits, multiple) = units.first { trimmed.hasSuffix($0.0) }.map { (String(trimmed.dropLast($0.0.count)), $0.1) } ?? (trimmed, 1)
        guard let count = Int(digits.trimmingCharacters(in: .whitespaces)), count > 0, count <= (1 << 30) / multiple else { return nil }
        return count * multiple
    }

    /// Fails, saying how to rebuild, when this build has no dashboard.
    static func requireBuiltIn() throws {
        guard DashboardSupport.isBuiltIn else {
            throw CommandLineError(
                "this build of \(Installation.shared.commandName) has no web dashboard", help: [DashboardSupport.rebuildHint])
        }
    }

    /// The dashboard's configuration for a workflows folder and stores.
    ///
    /// - Parameters:
    ///   - defaultAddress: The address when `--http` is not given.
    ///   - workflows: The folder of workflow files.
    ///   - stores: The stores the pages read and record runs in.
    ///   - locale: The language of dialogs and titles.
    ///   - logger: Where the dashboard's records go.
    /// - Throws: `CommandLineError` pointing at `--http` when the address cannot be read or is
    ///   reachable from other machines without a token, or naming the secret that is missing.
    func configuration(
        defaultAddress: String, workflows: String, stores: StateStores, locale: String, logger: Logger
    ) throws -> DashboardConfiguration {
        let written = http ?? defaultAddress
        let argument = Installation.shared.arguments.lastIndex { $0 == written || $0 == "--http=\(written)" }
        let secrets = SecretStore.standard()
        var configuration = DashboardConfiguration(
            workflows: URL(fileURLWithPath: workflows, isDirectory: true), catalog: Installation.shared.catalog,
            automations: stores.automations, history: stores.history, secrets: secrets, logger: logger)
        configuration.locale = locale
        configuration.clock = TaskClock.current
        configuration.commandName = Installation.shared.commandName
        configuration.webhookBodyLimit = Self.bytes(webhookBodyLimit) ?? configuration.webhookBodyLimit
        do {
            configuration.address = try ListenAddress(parsing: written)
        } catch {
            throw CommandLineError(
                error.description, help: ["write --http HOST:PORT, such as --http 127.0.0.1:8080"], exitCode: 64, argumentIndex: argument)
        }
        configuration.token = try resolvedToken(secrets: secrets)
        do {
            try configuration.checkExposure()
        } catch .exposedWithoutToken(let address) {
            let command = Installation.shared.commandName
            throw CommandLineError(
                DashboardError.exposedWithoutToken(address).description,
                help: [
                    "pass --token-secret NAME, with a token of 16 characters or more stored by `\(command) secrets set NAME`, "
                        + "or --token TOKEN",
                    "or listen on this machine only: --http 127.0.0.1:\(address.port)"
                ], exitCode: 64, argumentIndex: argument)
        } catch {
            throw CommandLineError(error.description, help: ["choose a longer token, such as the output of `openssl rand -hex 24`"], exitCode: 64)
        }
        return configuration
    }

    /// The token given, or read from the secret named.
    private func resolvedToken(secrets: SecretStore) throws -> String? {
        guard let tokenSecret else { return token }
        let command = Installation.shared.commandName
        let stored: [String: SecretStore.Secret]
        do {
            stored = try secrets.secrets()
        } catch {
            throw CommandLineError(error)
        }
        guard let secret = stored[tokenSecret] else {
            var help: [String] = []
            if let nearest = NameSuggestion.nearest(to: tokenSecret, among: Array(stored.keys).sorted()) {
                help.append("did you mean '\(nearest)'?")
            }
            help.append("`\(command) secrets set \(tokenSecret)` stores it")
            let argument = Installation.shared.arguments.lastIndex { $0 == tokenSecret || $0 == "--token-secret=\(tokenSecret)" }
            throw CommandLineError("no stored secret '\(tokenSecret)' for --token-secret", help: help, exitCode: 64, argumentIndex: argument)
        }
        return secret.value
    }
}
