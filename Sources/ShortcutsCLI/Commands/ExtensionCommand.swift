import ArgumentParser
import Foundation
import IntentKit
import Synchronization

/// `extension serve`: the tool as an extension of another engine.
struct ExtensionCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "extension",
            abstract: "Serve this tool's apps to an engine, as an extension.",
            subcommands: [ExtensionServeCommand.self])
    }
}

struct ExtensionServeCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        let name = Installation.shared.commandName
        return CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the extension protocol on standard input and output.",
            discussion: """
                Speaks JSON-RPC 2.0, one message per line, as Schemas/extension-protocol.md describes: \
                the engine asks for the apps' metadata (initialize), performs their intents \
                (intents/perform) and queries their entities (entities/…); questions an intent asks \
                go to the engine. Standard output carries only the protocol: what intents print goes \
                to standard error. Ends after shutdown, or when standard input ends.
                Not run by hand: `shortcuts extensions add PATH` registers the tool, and the engine \
                starts `\(name) extension serve` when it needs the tool's intents.
                """)
    }

    /// The apps the tool was built with, which it serves (never apps it runs as extensions).
    static let servedApps = Mutex<[IntentApp]?>(nil)

    func run() async throws {
        let apps = Self.servedApps.withLock { $0 } ?? Installation.shared.catalog.apps
        let streams = try ProtocolStreams.takeOver()
        let server = ExtensionServer(
            catalog: IntentCatalog(apps: apps), streams: streams, name: Installation.shared.commandName, version: Installation.shared.version)
        await server.serve()
    }
}
