/// A located message about a workflow file: an error, a warning or a note.
///
/// Loading reports every problem it finds as a diagnostic, and later stages
/// (validation, running) report theirs the same way, so that a command-line tool can
/// render all of them alike with ``DiagnosticRenderer``.
///
/// ```swift
/// let diagnostic = Diagnostic(
///     severity: .error,
///     message: "unknown parameter 'athorName' for intent 'Library.AddBook'",
///     location: SourceLocation(file: "Workflows/add.yaml", line: 12, column: 5, length: 9),
///     help: "did you mean 'authorName'?"
/// )
/// print(diagnostic) // Workflows/add.yaml:12:5: error: unknown parameter 'athorName' for intent 'Library.AddBook'
/// ```
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    ///
    /// ```swift
    /// if diagnostics.contains(where: { $0.severity == .error }) { exit(1) }
    /// ```
    public enum Severity: String, Sendable, Hashable, CaseIterable {
        /// The workflow cannot be used as written.
        case error
        /// The workflow can be used, but probably does not do what was meant.
        case warning
        /// Extra information attached to another diagnostic.
        case note
    }

    /// How serious the diagnostic is.
    public var severity: Severity
    /// The message, in lower case without a final period, such as `unknown key 'limt' in 'find' step`.
    public var message: String
    /// Where the problem is; its length, when known, is underlined when rendering.
    public var location: SourceLocation
    /// An optional hint printed after the excerpt, such as `did you mean 'limit'?`.
    public var help: String?
    /// What the user of a tool can do besides editing the file, for the tool to word in its own
    /// terms (the command line says `help: answer it in advance with --answer name=VALUE`).
    public var remedy: Remedy?

    /// A fix outside the file, which each tool words for its own interface.
    ///
    /// ```swift
    /// if case .answerInAdvance(let name, let placeholder) = diagnostic.remedy { print("--answer \(name)=\(placeholder)") }
    /// ```
    public enum Remedy: Sendable, Hashable {
        /// The question named `name` can be answered before the run starts.
        case answerInAdvance(name: String, placeholder: String)
        /// The workflow's input named `name` can be given when the run starts.
        case giveInput(name: String, placeholder: String)
        /// The installed things of a kind (`intents`, `entities`) can be listed.
        case listInstalled(String)
        /// The secret named `name`, which does not exist, can be stored.
        case storeSecret(name: String)
    }

    /// Creates a diagnostic.
    ///
    /// ```swift
    /// let warning = Diagnostic(severity: .warning, message: "step is never reached", location: location)
    /// ```
    ///
    /// - Parameters:
    ///   - severity: How serious the diagnostic is.
    ///   - message: The message, in lower case without a final period.
    ///   - location: Where the problem is.
    ///   - help: An optional hint such as `did you mean 'limit'?`.
    public init(severity: Severity, message: String, location: SourceLocation, help: String? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.help = help
    }

    /// Creates an error diagnostic.
    ///
    /// ```swift
    /// let error = Diagnostic.error("missing required key 'steps'", at: location)
    /// ```
    ///
    /// - Parameters:
    ///   - message: The message, in lower case without a final period.
    ///   - location: Where the problem is.
    ///   - help: An optional hint.
    /// - Returns: A diagnostic of severity ``Severity/error``.
    public static func error(_ message: String, at location: SourceLocation, help: String? = nil) -> Diagnostic {
        Diagnostic(severity: .error, message: message, location: location, help: help)
    }

    /// The one-line form `file:line:column: severity: message`, without excerpt or help.
    ///
    /// ```swift
    /// print(diagnostic.description) // add.yaml:3:7: error: unknown key 'limt' in 'find' step
    /// ```
    public var description: String {
        "\(location): \(severity.rawValue): \(message)"
    }
}
