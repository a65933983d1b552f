import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Chooses which tools `shortcuts mcp` exposes, from `--allow` and `--deny` glob patterns over
/// tool names (`*` any text, `?` one character, `[abc]` one of a set).
///
/// - A tool that a `--deny` pattern matches is hidden, whatever else is given.
/// - Without `--allow`, every other tool is exposed; with it, only the tools an `--allow`
///   pattern matches.
/// - The actions that reach outside the engine (the built-in Shell, Files, Web and Clipboard
///   apps) are exposed only when an `--allow` pattern names their app: the pattern matches the
///   tool and its text before the first wildcard starts with the app's prefix (`Shell_`). So
///   `Shell_*` and `Files_ReadFile` name them; `*`, `Sh*` and `*_RunShellScript` do not.
///
/// ```swift
/// let filter = ToolFilter(allow: ["Library_*", "Shell_*"], deny: ["Library_DeleteBook"])
/// filter.exposes("Shell_RunShellScript", app: "Shell")   // true
/// filter.exposes("Library_DeleteBook", app: "Library")   // false
/// ```
struct ToolFilter: Sendable {
    /// The apps whose tools are exposed only when an `--allow` pattern names them.
    static let guardedApps = ["Shell", "Files", "Web", "Clipboard"]

    /// Patterns that expose tools.
    var allow: [String]
    /// Patterns that hide tools.
    var deny: [String]

    /// Whether a tool is exposed.
    ///
    /// - Parameters:
    ///   - toolName: The tool's name.
    ///   - app: The app of an intent's tool; `nil` for a workflow.
    /// - Returns: Whether clients see and may call it.
    func exposes(_ toolName: String, app: String?) -> Bool {
        if deny.contains(where: { Self.matches($0, toolName) }) { return false }
        if let app, Self.guardedApps.contains(app) {
            let prefix = ToolName.appPrefix(app)
            return allow.contains { Self.matches($0, toolName) && Self.literalPrefix(of: $0).hasPrefix(prefix) }
        }
        return allow.isEmpty || allow.contains { Self.matches($0, toolName) }
    }

    /// Whether a glob pattern matches a whole name.
    static func matches(_ pattern: String, _ name: String) -> Bool {
        fnmatch(pattern, name, 0) == 0
    }

    /// The text of a pattern before its first wildcard.
    private static func literalPrefix(of pattern: String) -> String {
        String(pattern.prefix { !"*?[\\".contains($0) })
    }
}
