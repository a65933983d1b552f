import Foundation

/// A problem in `mcp.json`, located at a line and column.
///
/// ```
/// /home/me/.local/share/shortcuts/mcp.json:4:7: error: unknown key 'arg' for MCP server 'weather'
/// help: did you mean 'args'?
/// ```
package struct MCPConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The file's path.
    package var path: String
    /// What is wrong, in lower case without a final period.
    package var message: String
    /// The 1-based line.
    package var line: Int
    /// The 1-based column, in characters.
    package var column: Int
    /// How many characters to underline.
    package var length: Int
    /// A hint such as `did you mean 'args'?`.
    package var help: String?

    init(path: String, message: String, at location: LocatedJSON.Location, help: String? = nil) {
        self.path = path
        self.message = message
        self.line = location.line
        self.column = location.column
        self.length = location.length
        self.help = help
    }

    /// The one-line form `path:line:column: error: message`, then the help line.
    package var description: String {
        "\(path):\(line):\(column): error: \(message)" + (help.map { "\nhelp: " + $0 } ?? "")
    }
}
