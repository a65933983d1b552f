import Foundation

/// An error carrying every diagnostic found, with the source text needed to render them.
///
/// Loading throws one `DiagnosticError` listing all the problems of a file rather than
/// stopping at the first one.
///
/// ```swift
/// do {
///     let workflow = try WorkflowLoader.load(contentsOf: url)
///     run(workflow)
/// } catch {
///     FileHandle.standardError.write(Data((error.rendered() + "\n").utf8))
/// }
/// ```
public struct DiagnosticError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The diagnostics, sorted by file, line and column.
    public var diagnostics: [Diagnostic]
    /// The text of each file the diagnostics point into, keyed by file name, for excerpts.
    public var sources: [String: String]

    /// Creates an error from diagnostics.
    ///
    /// ```swift
    /// throw DiagnosticError([.error("no such intent 'Library.Nope'", at: location)],
    ///                       sources: [workflow.fileName: workflow.sourceText])
    /// ```
    ///
    /// - Parameters:
    ///   - diagnostics: The diagnostics; they are sorted by location, keeping the order of equal locations.
    ///   - sources: The text of each file, keyed by file name, used to show excerpts.
    public init(_ diagnostics: [Diagnostic], sources: [String: String] = [:]) {
        self.diagnostics = diagnostics.enumerated()
            .sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
            .map(\.element)
        self.sources = sources
    }

    /// Renders every diagnostic with its source excerpt, separated by blank lines.
    ///
    /// ```swift
    /// print(error.rendered())
    /// // add.yaml:12:5: error: unknown key 'athorName' in 'perform' step
    /// //    12 |     athorName: Delia Owens
    /// //       |     ^~~~~~~~~
    /// ```
    ///
    /// - Returns: The rendered text, without a trailing newline.
    public func rendered() -> String {
        DiagnosticRenderer(sources: sources).render(diagnostics)
    }

    /// The rendered diagnostics; see ``rendered()``.
    public var description: String {
        rendered()
    }

    /// The rendered diagnostics, so that `error.localizedDescription` shows them too.
    public var errorDescription: String? {
        rendered()
    }
}
