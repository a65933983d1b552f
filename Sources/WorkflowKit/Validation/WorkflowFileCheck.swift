import Foundation
import IntentKit

/// A workflow file checked as `shortcuts validate` checks it: loaded, and what loaded validated
/// in the same pass, so that every error of the file is reported at once. A file with an
/// `automation:` block is checked as a headless run.
///
/// ```swift
/// let check = WorkflowFileCheck(contentsOf: url, catalog: catalog, secrets: .standard())
/// for diagnostic in check.diagnostics { print(diagnostic) }   // Workflows/add.yaml:12:5: error: …
/// ```
public struct WorkflowFileCheck: Sendable {
    /// The workflow, when the file loaded whole; `nil` when it did not (the diagnostics say why).
    public var workflow: Workflow?
    /// Every diagnostic of loading and validation, sorted by location; empty when the file is valid.
    public var diagnostics: [Diagnostic]
    /// The text of each file the diagnostics point into, by file name, for excerpts.
    public var sources: [String: String]

    /// Whether the file loaded and has no diagnostic.
    public var isValid: Bool { workflow != nil && diagnostics.isEmpty }

    /// Loads and validates a workflow file.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - catalog: The installed apps.
    ///   - isHeadless: Whether to check it as a run that cannot ask questions; files with an
    ///     `automation:` block are always checked so.
    ///   - secrets: The store whose secret names `${secrets.NAME}` must be among; `nil` to not check them.
    public init(contentsOf url: URL, catalog: IntentCatalog, isHeadless: Bool = false, secrets: SecretStore? = nil) {
        func validator(for workflow: Workflow?) -> WorkflowValidator {
            WorkflowValidator(catalog: catalog, isHeadless: isHeadless || workflow?.automation != nil, secrets: secrets)
        }
        do {
            let workflow = try WorkflowLoader.load(contentsOf: url)
            let (diagnostics, sources) = validator(for: workflow).check(workflow)
            self.workflow = workflow
            self.diagnostics = diagnostics
            self.sources = sources
        } catch {
            let complete = error.addingDiagnostics(of: validator(for: error.loadedPart).check)
            workflow = nil
            diagnostics = complete.diagnostics
            sources = complete.sources
        }
    }
}
