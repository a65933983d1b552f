import ArgumentParser
import Clockwork
import Foundation
import IntentKit
import MCPServerApps
import WorkflowKit

struct MCPServersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp-servers",
        abstract: "The MCP servers whose tools workflows use as steps (perform: mcp.NAME.TOOL).",
        discussion: """
            Servers are configured in $SHORTCUTS_HOME/mcp.json, in the shape AI assistants use:
              {"mcpServers": {"weather": {"command": "python3", "args": ["weather.py"], "env": {"UNITS": "metric"}}}}
            Each server is an app named mcp.NAME whose tools are intents, their parameters read from the tools' input \
            schemas: `shortcuts perform mcp.weather.forecast city=Oslo`, or `perform: mcp.weather.forecast` in a workflow. \
            The tool lists are cached in $SHORTCUTS_HOME/mcp-tools/ (read again when a server's command, arguments or \
            environment change, or by `refresh`), so starting the engine starts no server; a server starts on its first \
            call and stops when the run or the daemon ends. (`shortcuts mcp` is the other direction: the engine as an \
            MCP server.)
            """,
        subcommands: [List.self, Add.self, Remove.self, Check.self, Refresh.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the configured MCP servers and their cached tools, without starting them.")

        func run() async throws {
            let servers = try MCPServersCommand.servers()
            guard !servers.isEmpty else {
                print("No MCP servers are configured in \(MCPServerList.file(environment: ProcessEnvironment.current).path).")
                return
            }
            let cache = MCPToolCache(environment: ProcessEnvironment.current)
            for server in servers {
                print("\(server.appName)  \(server.commandLine)")
                if let entry = cache.entry(for: server) {
                    let names = entry.tools.map(\.name).sorted()
                    print("  \(names.count) tool\(names.count == 1 ? "" : "s"): \(names.joined(separator: ", "))")
                } else {
                    print("  tools not read yet (read on first use, or: \(Installation.shared.commandName) mcp-servers check \(server.name))")
                }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an MCP server to mcp.json, start it, read its tools and stop it.",
            discussion: """
                Everything after the name is the command that starts the server and its arguments, as they are:
                  shortcuts mcp-servers add weather python3 /opt/weather/server.py --units metric
                The server is kept in mcp.json when it does not start, so that it can be fixed and checked again \
                (mcp-servers check NAME); the command exits with 1 and says what happened.
                """)

        @Option(
            name: .customLong("env"),
            help: ArgumentHelp("A variable the server gets, NAME=VALUE; may be repeated.", valueName: "name=value"))
        var environment: [String] = []

        @Flag(help: "Replace a server of the same name.")
        var replace = false

        @Flag(help: "Only write the configuration: do not start the server to read its tools.")
        var noCheck = false

        @Argument(help: ArgumentHelp("The server's name: its tools are mcp.NAME.TOOL.", valueName: "name"))
        var name: String

        @Argument(
            parsing: .captureForPassthrough,
            help: ArgumentHelp("The program that starts the server, and its arguments.", valueName: "command"))
        var command: [String] = []

        /// The command and its arguments, without a `--` before them.
        private var words: [String] { command.first == "--" ? Array(command.dropFirst()) : command }

        /// Refuses a bad name, a missing command and a variable without '=' (usage errors).
        private func checkArguments() throws {
            guard MCPServerList.isValidName(name) else {
                throw CommandLineError(
                    "MCP server name '\(name)' \(MCPServerList.nameRule.message)", help: [MCPServerList.nameRule.help], exitCode: 64)
            }
            guard let program = words.first, !program.isEmpty else {
                throw CommandLineError(
                    "give the command that starts the server after its name",
                    help: ["for example: \(Installation.shared.commandName) mcp-servers add \(name) python3 server.py"], exitCode: 64)
            }
            for variable in environment where !variable.contains("=") || variable.hasPrefix("=") {
                throw CommandLineError("--env '\(variable)' is not NAME=VALUE", help: ["write it --env UNITS=metric"], exitCode: 64)
            }
        }

        func run() async throws {
            try checkArguments()
            var variables: [String: String] = [:]
            for variable in environment {
                let parts = variable.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                variables[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            let server = MCPServerConfiguration(name: name, command: words[0], arguments: Array(words.dropFirst()), environment: variables)
            let environment = ProcessEnvironment.current
            var list = try MCPServersCommand.servers()
            let file = MCPServerList.file(environment: environment).path
            if let index = list.firstIndex(where: { $0.name == name }) {
                guard replace else {
                    throw CommandLineError(
                        "an MCP server named '\(name)' is configured already in \(file): \(list[index].commandLine)",
                        help: ["replace it with --replace, or choose another name"], exitCode: 1)
                }
                list[index] = server
            } else {
                list.append(server)
            }
            try MCPServerList(servers: list).save(environment: environment)
            print("Added \(server.appName) to \(file): \(server.commandLine)")
            guard !noCheck else { return }
            do {
                try await MCPServersCommand.read(server, verbose: false)
            } catch {
                let command = Installation.shared.commandName
                throw CommandLineError(
                    "\(server.appName) was added, but \(CommandLineError(error).message)",
                    help: [
                        "fix its command and check it again: \(command) mcp-servers check \(name)",
                        "or remove it: \(command) mcp-servers remove \(name)"
                    ],
                    exitCode: 1)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an MCP server from mcp.json, with its cached tools.")

        @Argument(help: ArgumentHelp("The server's name in mcp.json.", valueName: "name"), completion: .custom(ShellCompletions.mcpServers))
        var name: String

        func run() async throws {
            let server = try MCPServersCommand.server(named: name)
            let environment = ProcessEnvironment.current
            let list = try MCPServersCommand.servers().filter { $0.name != server.name }
            try MCPServerList(servers: list).save(environment: environment)
            MCPToolCache(environment: environment).remove(server)
            print("Removed \(server.appName) from \(MCPServerList.file(environment: environment).path)")
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start an MCP server, read its tools (and cache them), and stop it.",
            discussion: "Exits with 1 and says what happened when the server cannot be started or does not answer.")

        @Argument(help: ArgumentHelp("The server's name in mcp.json.", valueName: "name"), completion: .custom(ShellCompletions.mcpServers))
        var name: String

        func run() async throws {
            let server = try MCPServersCommand.server(named: name)
            try await MCPServersCommand.read(server, verbose: true)
        }
    }

    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read the tools of one MCP server, or of all, again and cache them.")

        @Argument(
            help: ArgumentHelp("The server's name in mcp.json (every server when left out).", valueName: "name"),
            completion: .custom(ShellCompletions.mcpServers))
        var name: String?

        func run() async throws {
            let servers = try name.map { [try MCPServersCommand.server(named: $0)] } ?? MCPServersCommand.servers()
            var failures = 0
            for server in servers {
                do {
                    try await MCPServersCommand.read(server, verbose: false)
                } catch {
                    CommandOutput.current.writeError(Data(("error: \(CommandLineError(error).message)\n").utf8))
                    failures += 1
                }
            }
            if failures > 0 { throw ExitCode.failure }
        }
    }

    /// Starts a server, reads and caches its tools, stops it, and says so.
    static func read(_ server: MCPServerConfiguration, verbose: Bool) async throws {
        let started = TaskClock.current.now()
        let (tools, connection) = try await MCPServerApps.fetch(
            server, into: MCPToolCache(environment: ProcessEnvironment.current), environment: ProcessEnvironment.current)
        let elapsed = TaskClock.current.elapsed(since: started)
        await connection.stop()
        let milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        print("\(server.appName): \(tools.count) tool\(tools.count == 1 ? "" : "s") (started and answered in \(milliseconds) ms)")
        if verbose {
            let app = MCPToolMetadata.app(for: server, tools: tools)
            for intent in app.intents {
                let parameters = intent.parameters.map { "\($0.name): \($0.type)" }.joined(separator: ", ")
                print("  \(intent.name)(\(parameters)) -> \(intent.result.valueType ?? "nothing")")
            }
        }
    }

    /// The configured servers, with a located error for a malformed `mcp.json`.
    static func servers() throws -> [MCPServerConfiguration] {
        do {
            return try MCPServerList.load(environment: ProcessEnvironment.current).servers
        } catch let error as MCPConfigurationError {
            throw located(error)
        }
    }

    /// One configured server by name.
    static func server(named name: String) throws -> MCPServerConfiguration {
        let servers = try servers()
        if let server = servers.first(where: { $0.name == name || $0.appName == name }) { return server }
        let command = Installation.shared.commandName
        var help: [String] = []
        if let suggestion = NameSuggestion.nearest(to: name, among: servers.map(\.name)) { help.append("did you mean '\(suggestion)'?") }
        help.append(
            servers.isEmpty
                ? "configure servers in \(MCPServerList.file(environment: ProcessEnvironment.current).path) as {\"mcpServers\": {\"NAME\": {\"command\": …}}}"
                : "list them with: \(command) mcp-servers list")
        throw CommandLineError(
            "no MCP server named '\(name)' in \(MCPServerList.file(environment: ProcessEnvironment.current).path)", help: help, exitCode: 1)
    }

    /// A configuration error drawn at its line with a caret, as workflow errors are.
    static func located(_ error: MCPConfigurationError) -> DiagnosticError {
        let source = (try? String(contentsOfFile: error.path, encoding: .utf8)) ?? ""
        return DiagnosticError(
            [
                Diagnostic.error(
                    error.message, at: SourceLocation(file: error.path, line: error.line, column: error.column, length: error.length),
                    help: error.help)
            ], sources: [error.path: source])
    }
}
