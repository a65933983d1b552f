import Foundation

/// The names intents and workflows have as MCP tools.
///
/// The MCP specification allows letters, digits, `_`, `-` and `.` in tool names, but several
/// clients and model APIs accept only `^[a-zA-Z0-9_-]{1,64}$`, so names keep to that set: the
/// dot of `App.Intent` becomes `_`, a workflow is `workflow_` and its file name without the
/// extension, and any other character becomes `_`.
///
/// ```swift
/// ToolName.intent("Library.AddBook")        // "Library_AddBook"
/// ToolName.workflow("add-and-open")         // "workflow_add-and-open"
/// ```
enum ToolName {
    /// The prefix of every workflow's tool.
    static let workflowPrefix = "workflow_"

    /// The tool name of an intent named `App.Intent`.
    ///
    /// - Parameter intentName: The intent's full name.
    /// - Returns: The name with `.` and other characters outside `[A-Za-z0-9_-]` as `_`.
    static func intent(_ intentName: String) -> String {
        sanitized(intentName)
    }

    /// The tool name of a workflow file, from its name without the extension.
    ///
    /// - Parameter fileStem: The file's name without `.yaml` or `.yml`.
    /// - Returns: `workflow_` and the sanitized name.
    static func workflow(_ fileStem: String) -> String {
        workflowPrefix + sanitized(fileStem)
    }

    /// The prefix of the tools of an app: its name and `_`.
    ///
    /// ```swift
    /// ToolName.appPrefix("Shell")   // "Shell_"
    /// ```
    static func appPrefix(_ appName: String) -> String {
        sanitized(appName) + "_"
    }

    private static func sanitized(_ name: String) -> String {
        String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { scalar in
                    switch scalar {
                    case "a"..."z", "A"..."Z", "0"..."9", "_", "-": scalar
                    default: "_"
                    }
                }))
    }
}
