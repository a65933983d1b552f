import Foundation
import IntentKit

/// The MCP servers configured in `$SHORTCUTS_HOME/mcp.json`, in the shape AI assistants use:
///
/// ```json
/// {
///   "mcpServers": {
///     "weather": {"command": "python3", "args": ["/opt/weather/server.py"], "env": {"UNITS": "metric"}}
///   }
/// }
/// ```
///
/// A missing file means no servers. Every problem is reported at its line and column, and an
/// unknown key is named with the key that was probably meant.
///
/// ```swift
/// let servers = try MCPServerList.load().servers
/// ```
package struct MCPServerList: Sendable {
    /// The servers, in the file's order.
    package var servers: [MCPServerConfiguration]

    /// A list of servers, to write with ``save(environment:)``.
    package init(servers: [MCPServerConfiguration]) {
        self.servers = servers
    }

    /// The keys a server's entry may have.
    static let serverKeys = ["command", "args", "env", "type"]

    /// The configuration file of a data folder: `mcp.json` in it.
    ///
    /// - Parameter environment: The environment that names the data folder (`SHORTCUTS_HOME`).
    /// - Returns: The file's URL (which may not exist).
    package static func file(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        ShortcutsHome.directory(environment: environment).appendingPathComponent("mcp.json")
    }

    /// Reads the configuration file; no file means no servers.
    ///
    /// - Parameter environment: The environment that names the data folder.
    /// - Returns: The configured servers.
    /// - Throws: ``MCPConfigurationError`` for a malformed file, or the file system's error
    ///   when the file exists but cannot be read.
    package static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> MCPServerList {
        let url = file(environment: environment)
        guard FileManager.default.fileExists(atPath: url.path) else { return MCPServerList(servers: []) }
        let data = try Data(contentsOf: url)
        return try parse(String(decoding: data, as: UTF8.self), path: url.path)
    }

    /// Reads configuration text.
    ///
    /// ```swift
    /// try MCPServerList.parse(#"{"mcpServers": {"echo": {"command": "echo-server"}}}"#, path: "mcp.json")
    /// ```
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - path: The file's path, for messages.
    /// - Returns: The configured servers.
    /// - Throws: ``MCPConfigurationError``.
    package static func parse(_ text: String, path: String) throws(MCPConfigurationError) -> MCPServerList {
        let root: LocatedJSON
        do {
            root = try LocatedJSON.parse(text)
        } catch {
            throw MCPConfigurationError(path: path, message: error.message, at: error.location)
        }
        guard case .object(let members) = root.kind else {
            throw MCPConfigurationError(
                path: path, message: "expected an object with the key 'mcpServers', found \(root.kindName)", at: root.location)
        }
        var servers: [MCPServerConfiguration] = []
        for member in members {
            guard member.key == "mcpServers" else {
                throw unknownKey(member, in: "the file", among: ["mcpServers"], path: path)
            }
            guard case .object(let entries) = member.value.kind else {
                throw MCPConfigurationError(
                    path: path, message: "'mcpServers' must be an object of servers by name, found \(member.value.kindName)",
                    at: member.value.location)
            }
            for entry in entries {
                if servers.contains(where: { $0.name == entry.key }) {
                    throw MCPConfigurationError(path: path, message: "MCP server '\(entry.key)' is configured twice", at: entry.keyLocation)
                }
                servers.append(try server(entry, path: path))
            }
        }
        return MCPServerList(servers: servers)
    }

    /// Whether a server may have this name: letters, digits, `-` and `_`, as its tools are
    /// named `mcp.NAME.TOOL`.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// Why a name is refused, and what to do.
    package static let nameRule = (
        message: "can only have letters, digits, '-' and '_'",
        help: "the server's tools are named mcp.NAME.TOOL, so the name cannot have dots or spaces"
    )

    /// The file's text for these servers, in their order: what ``parse(_:path:)`` reads back.
    ///
    /// ```swift
    /// MCPServerList(servers: [MCPServerConfiguration(name: "echo", command: "echo-server")]).text
    /// // {\n  "mcpServers": {\n    "echo": {\n      "command": "echo-server"\n    }\n  }\n}\n
    /// ```
    package var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        func quoted(_ text: String) -> String {
            String(decoding: (try? encoder.encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
        }
        let entries = servers.map { server -> String in
            var members = ["      \"command\": \(quoted(server.command))"]
            if !server.arguments.isEmpty { members.append("      \"args\": [\(server.arguments.map(quoted).joined(separator: ", "))]") }
            if !server.environment.isEmpty {
                let variables = server.environment.sorted { $0.key < $1.key }.map { "\(quoted($0.key)): \(quoted($0.value))" }
                members.append("      \"env\": {\(variables.joined(separator: ", "))}")
            }
            return "    \(quoted(server.name)): {\n\(members.joined(separator: ",\n"))\n    }"
        }
        return "{\n  \"mcpServers\": {\n\(entries.joined(separator: ",\n"))\(entries.isEmpty ? "" : "\n")  }\n}\n"
    }

    /// Writes the servers to the configuration file, readable by its owner alone (an `env` may
    /// hold a token), replacing it at once: a reader sees the old file or the new one.
    ///
    /// - Parameter environment: The environment that names the data folder.
    package func save(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let url = Self.file(environment: environment)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".mcp.json.\(UUID().uuidString)").path
        func failure() -> CocoaError {
            CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
        // Created readable by its owner alone, whatever the umask, before a byte is written.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure() }
        var isRenamed = false
        defer {
            if !isRenamed { unlink(temporary) }
        }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                close(descriptor)
                throw failure()
            }
            written += count
        }
        let flushed = fsync(descriptor) == 0
        close(descriptor)
        guard flushed, rename(temporary, url.path) == 0 else { throw failure() }
        isRenamed = true
    }

    /// The server of one entry of `mcpServers`.
    private static func server(_ entry: LocatedJSON.Member, path: String) throws(MCPConfigurationError) -> MCPServerConfiguration {
        let name = entry.key
        guard isValidName(name) else {
            throw MCPConfigurationError(
                path: path, message: "MCP server name '\(name)' \(nameRule.message)", at: entry.keyLocation, help: nameRule.help)
        }
        guard case .object(let members) = entry.value.kind else {
            throw MCPConfigurationError(
                path: path, message: "MCP server '\(name)' must be an object with 'command', found \(entry.value.kindName)",
                at: entry.value.location)
        }
        var command: String?
        var arguments: [String] = []
        var environment: [String: String] = [:]
        for member in members {
            let value = member.value
            switch member.key {
            case "command":
                guard case .string(let text) = value.kind, !text.isEmpty else {
                    throw MCPConfigurationError(
                        path: path, message: "'command' of MCP server '\(name)' must be a non-empty string, found \(value.kindName)",
                        at: value.location)
                }
                command = text
            case "args":
                guard case .array(let elements) = value.kind else {
                    throw MCPConfigurationError(
                        path: path, message: "'args' of MCP server '\(name)' must be an array of strings, found \(value.kindName)",
                        at: value.location)
                }
                for element in elements {
                    guard case .string(let text) = element.kind else {
                        throw MCPConfigurationError(
                            path: path, message: "'args' of MCP server '\(name)' must hold strings, found \(element.kindName)",
                            at: element.location, help: "write every argument in double quotes")
                    }
                    arguments.append(text)
                }
            case "env":
                guard case .object(let variables) = value.kind else {
                    throw MCPConfigurationError(
                        path: path, message: "'env' of MCP server '\(name)' must be an object of strings, found \(value.kindName)",
                        at: value.location)
                }
                for variable in variables {
                    guard case .string(let text) = variable.value.kind else {
                        throw MCPConfigurationError(
                            path: path,
                            message: "'env' variable '\(variable.key)' of MCP server '\(name)' must be a string, found \(variable.value.kindName)",
                            at: variable.value.location, help: "write the value in double quotes")
                    }
                    environment[variable.key] = text
                }
            case "type":
                guard case .string("stdio") = value.kind else {
                    throw MCPConfigurationError(
                        path: path, message: "MCP server '\(name)' has a 'type' other than \"stdio\"", at: value.location,
                        help: "only servers started as a command and spoken to over stdio are supported")
                }
            default:
                throw unknownKey(member, in: "MCP server '\(name)'", among: serverKeys, path: path)
            }
        }
        guard let command else {
            throw MCPConfigurationError(
                path: path, message: "MCP server '\(name)' has no 'command'", at: entry.keyLocation,
                help: "add \"command\": \"PROGRAM\" (and \"args\": [...]) to start the server")
        }
        return MCPServerConfiguration(name: name, command: command, arguments: arguments, environment: environment)
    }

    private static func unknownKey(
        _ member: LocatedJSON.Member, in owner: String, among keys: [String], path: String
    ) -> MCPConfigurationError {
        let suggestion = NameSuggestion.nearest(to: member.key, among: keys)
        return MCPConfigurationError(
            path: path, message: "unknown key '\(member.key)' in \(owner)", at: member.keyLocation,
            help: suggestion.map { "did you mean '\($0)'?" } ?? "the keys are " + keys.map { "'\($0)'" }.joined(separator: ", "))
    }
}
