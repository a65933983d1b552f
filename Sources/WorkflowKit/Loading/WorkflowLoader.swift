import Foundation
import Yams

/// Loads workflow files: YAML text in, a ``Workflow`` or every problem of the file out.
///
/// The YAML is parsed into nodes that remember their line and column, then converted to the
/// model by hand, so that every problem — YAML syntax, unknown or duplicate keys, wrong kinds
/// of values, missing keys, malformed expressions — is a located ``Diagnostic``. All the
/// problems of a file are reported together. No input makes loading crash.
///
/// ```swift
/// do {
///     let workflow = try WorkflowLoader.load(contentsOf: URL(fileURLWithPath: "Workflows/add.yaml"))
///     print("loaded", workflow.steps.count, "steps")
/// } catch {
///     print(error.rendered())
/// }
/// ```
public enum WorkflowLoader {
    /// The largest workflow file accepted: 16 MiB (16,777,216 bytes). A larger file is refused
    /// before it is read; text given directly is limited to as many Unicode scalars.
    public static let maximumFileSize = 16 << 20

    /// The names of the workflow files directly in a folder: regular files (or links to
    /// them) named `*.yaml` or `*.yml`, sorted. A FIFO or a device named like a workflow is
    /// left out, so that listing a folder never waits on one.
    ///
    /// ```swift
    /// WorkflowLoader.workflowFileNames(in: URL(fileURLWithPath: "Workflows"))   // ["add-and-open.yaml", …]
    /// ```
    ///
    /// - Parameters:
    ///   - folder: The folder; none are found when it cannot be read.
    ///   - includingHidden: Whether names starting with `.` are included (`false` by default).
    public static func workflowFileNames(in folder: URL, includingHidden: Bool = false) -> [String] {
        WorkflowFileReader.workflowFileNames(in: folder, includingHidden: includingHidden)
    }

    /// Loads a workflow file.
    ///
    /// Locations use the URL's relative path when it has one (`Workflows/add.yaml` for
    /// `URL(fileURLWithPath: "Workflows/add.yaml")`), and its path otherwise.
    ///
    /// The file's size is checked before it is read, and it is read at most
    /// ``maximumFileSize`` bytes at a time, so a huge file, a file that grows while it is
    /// read or a pipe costs no more than that. A file whose name does not end in `.yaml` or
    /// `.yml` and that does not load as a workflow is reported without its content.
    ///
    /// ```swift
    /// let workflow = try WorkflowLoader.load(contentsOf: URL(fileURLWithPath: "Workflows/add.yaml"))
    /// ```
    ///
    /// - Parameters:
    ///   - url: The file's URL.
    /// - Returns: The workflow.
    /// - Throws: ``DiagnosticError`` with every problem found, including a file that cannot be
    ///   read, is too large or is not UTF-8.
    public static func load(contentsOf url: URL) throws(DiagnosticError) -> Workflow {
        let fileName = url.isFileURL ? url.relativePath : url.absoluteString
        let start = SourceLocation(file: fileName, line: 1, column: 1)
        let data = try WorkflowFileReader.contents(ofFile: url.path, maximumSize: maximumFileSize, location: start)
        guard let text = String(data: data, encoding: .utf8) else {
            throw DiagnosticError([.error("the workflow file is not valid UTF-8 text", at: start)])
        }
        do {
            return try load(text: text, fileName: fileName)
        } catch {
            guard WorkflowFileReader.hasWorkflowExtension(fileName) else {
                throw DiagnosticError([
                    .error(
                        "'\(fileName)' is not a workflow: it does not load as one (\(error.diagnostics.count) "
                            + (error.diagnostics.count == 1 ? "problem" : "problems") + ")",
                        at: start, help: "workflow files are YAML files named NAME.yaml")
                ])
            }
            throw error
        }
    }

    /// Loads a workflow from its text.
    ///
    /// ```swift
    /// let workflow = try WorkflowLoader.load(text: """
    ///     name: Hello
    ///     steps:
    ///       - show: Hello ${input.name}
    ///     """, fileName: "hello.yaml")
    /// ```
    ///
    /// - Parameters:
    ///   - text: The YAML text.
    ///   - fileName: The name used in locations and diagnostics.
    /// - Returns: The workflow.
    /// - Throws: ``DiagnosticError`` with every problem found; its `sources` hold `text` for rendering.
    public static func load(text: String, fileName: String) throws(DiagnosticError) -> Workflow {
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" {
            text = String(text.unicodeScalars.dropFirst())
        }
        let outcome = LargeStackThread.run { [text] in
            loadOnCurrentThread(text: text, fileName: fileName)
        }
        switch outcome {
        case .success(let workflow):
            return workflow
        case .failure(let diagnostics, let part):
            throw DiagnosticError(diagnostics, sources: [fileName: text], loadedPart: part)
        }
    }

    private enum Outcome: Sendable {
        case success(Workflow)
        case failure([Diagnostic], Workflow?)
    }

    private static func loadOnCurrentThread(text: String, fileName: String) -> Outcome {
        let source = SourceText(text)
        guard text.unicodeScalars.count <= maximumFileSize else {
            return .failure(
                [
                    .error(
                        "the workflow is too large: more than \(maximumFileSize) characters (16 MiB)",
                        at: SourceLocation(file: fileName, line: 1, column: 1))
                ], nil)
        }
        switch YAMLComposer.compose(text, source: source, file: fileName) {
        case .failure(let diagnostic):
            return .failure([diagnostic], nil)
        case .document(let root, let shield):
            let converter = WorkflowConverter(file: fileName, source: source, shield: shield)
            let workflow = converter.convertWorkflow(root, sourceText: text)
            if let workflow, converter.diagnostics.isEmpty {
                return .success(workflow)
            }
            return .failure(converter.diagnostics, workflow)
        }
    }
}
