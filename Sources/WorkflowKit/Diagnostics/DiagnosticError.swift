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
    /// What loaded of a workflow file despite its errors, when its structure allowed it: the
    /// parts without errors, to validate so that one pass reports every error of the file
    /// (see ``addingDiagnostics(of:)``).
    public var loadedPart: Workflow?

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
    ///   - loadedPart: What loaded of the file despite the errors.
    public init(_ diagnostics: [Diagnostic], sources: [String: String] = [:], loadedPart: Workflow? = nil) {
        self.diagnostics = diagnostics.enumerated()
            .sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
            .map(\.element)
        self.sources = sources
        self.loadedPart = loadedPart
    }

    /// This error with, added, the diagnostics of a check of what loaded of the file
    /// (``loadedPart``), so that loading and validation errors are reported in one pass.
    ///
    /// ```swift
    /// do {
    ///     workflow = try WorkflowLoader.load(contentsOf: url)
    /// } catch {
    ///     print(error.addingDiagnostics(of: WorkflowValidator(catalog: catalog).check).rendered())
    /// }
    /// ```
    ///
    /// - Parameter check: Validates a workflow; given the loaded part, if any.
    /// - Returns: The error with every diagnostic, sorted by location, and the sources they point into.
    public func addingDiagnostics(of check: (Workflow) -> (diagnostics: [Diagnostic], sources: [String: String])) -> DiagnosticError {
        guard let loadedPart else { return self }
        let (found, foundSources) = check(loadedPart)
        let known = Set(diagnostics)
        return DiagnosticError(
            diagnostics + found.filter { !known.contains($0) },
            sources: sources.merging(foundSources) { first, _ in first }, loadedPart: loadedPart)
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
