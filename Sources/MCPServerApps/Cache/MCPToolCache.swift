import Clockwork
import Foundation
import IntentKit
import MCP

/// The tool lists of the configured MCP servers, kept in `$SHORTCUTS_HOME/mcp-tools/NAME.json`
/// so that the engine knows every server's tools without starting the servers.
///
/// An entry holds the ``MCPServerConfiguration/fingerprint`` of the configuration it was read
/// with; once the command, arguments or environment change, the entry no longer counts and
/// the list is read again on first use (or by `shortcuts mcp-servers refresh`).
///
/// ```swift
/// let cache = MCPToolCache()
/// if let tools = cache.tools(for: server) { … } else { try cache.store(await connection.tools(), for: server) }
/// ```
package struct MCPToolCache: Sendable {
    /// The folder of the entries.
    package var folder: URL
    /// The clock whose time an entry records as when its list was read.
    package var clock: any EngineClock

    /// The cache of a data folder.
    ///
    /// ```swift
    /// let cache = MCPToolCache(environment: ["SHORTCUTS_HOME": "/tmp/home"], clock: .system)
    /// ```
    ///
    /// - Parameters:
    ///   - environment: The environment that names the data folder (`SHORTCUTS_HOME`).
    ///   - clock: The clock that dates the entries; the real one by default.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment, clock: any EngineClock = .system) {
        folder = ShortcutsHome.directory(environment: environment).appendingPathComponent("mcp-tools", isDirectory: true)
        self.clock = clock
    }

    /// One cached tool list.
    package struct Entry: Codable, Sendable {
        /// The fingerprint of the configuration the list was read with.
        package var fingerprint: String
        /// When the list was read.
        package var fetched: Date
        /// The tools, as the server described them.
        package var tools: [Tool]
    }

    /// The file of a server's entry.
    package func file(for server: MCPServerConfiguration) -> URL {
        folder.appendingPathComponent(server.name + ".json")
    }

    /// The cached entry for a server's current configuration, or `nil` when there is none or it
    /// was read with another configuration (or cannot be read).
    package func entry(for server: MCPServerConfiguration) -> Entry? {
        guard let data = try? Data(contentsOf: file(for: server)) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let entry = try? decoder.decode(Entry.self, from: data), entry.fingerprint == server.fingerprint else { return nil }
        return entry
    }

    /// Keeps a server's tool list.
    ///
    /// - Parameters:
    ///   - tools: The tools.
    ///   - server: The configuration they were read with.
    /// - Throws: The file system's error when the entry cannot be written.
    package func store(_ tools: [Tool], for server: MCPServerConfiguration) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let entry = Entry(fingerprint: server.fingerprint, fetched: clock.now(), tools: tools)
        try encoder.encode(entry).write(to: file(for: server), options: .atomic)
    }

    /// Forgets a server's tool list (the server was removed).
    package func remove(_ server: MCPServerConfiguration) {
        try? FileManager.default.removeItem(at: file(for: server))
    }
}
