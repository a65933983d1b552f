#if Web
    import Foundation
    import IntentKit
    import WorkflowKit

    /// `/workflows/NAME`: the file's source with line numbers, each diagnostic shown under its
    /// line with a caret at its column and its help (the diagnostics of `shortcuts validate
    /// --no-interaction`, since runs from the page cannot ask questions), and the form that runs it.
    struct WorkflowPage: Sendable {
        /// A diagnostic, located.
        struct DiagnosticRow: Sendable {
            var severity: String
            var message: String
            var help: [String]
            var location: String
            var href: String?
            var caret: String?
            var excerpt: String?
        }

        /// A line of the source, with the diagnostics that point at it.
        struct SourceLine: Sendable {
            var number: Int
            var text: String
            var diagnostics: [DiagnosticRow]
            var hasDiagnostics: Bool
        }

        var chrome: PageChrome
        var fileName: String
        var file: String
        var name: String
        var description: String?
        /// Its `automation:` triggers in words, when it has any.
        var triggers: String?
        /// Whether the file is valid as `shortcuts validate` checks it.
        var isValid: Bool
        /// Whether it can run from the page: valid as a run that cannot ask questions.
        var canRunHere: Bool
        var diagnostics: [DiagnosticRow]
        var hasDiagnostics: Bool
        var errorCount: Int
        /// `1 error`, `3 errors`, or `2 diagnostics` when some are warnings.
        var diagnosticsTitle: String
        var lines: [SourceLine]
        var form: RunForm?
        var hasInputs: Bool
        /// Why the last run could not start, when it could not.
        var notice: String?

        /// The page of a file, with a submitted form and its errors when a run could not start.
        static func make(
            fileName: String, site: DashboardSite, context: DashboardContext, submitted: FormFields? = nil,
            inputErrors: [String: String] = [:], notice: String? = nil
        ) async throws -> WorkflowPage {
            let configuration = site.configuration
            let url = try WorkflowFiles(directory: configuration.workflows).url(named: fileName)
            let (check, isValid, source) = try await offload {
                let headless = WorkflowFileCheck(contentsOf: url, catalog: configuration.catalog, isHeadless: true, secrets: configuration.secrets)
                let isValid =
                    headless.isValid
                    || WorkflowFileCheck(contentsOf: url, catalog: configuration.catalog, isHeadless: false, secrets: configuration.secrets).isValid
                return (headless, isValid, try? String(contentsOf: url, encoding: .utf8))
            }
            return WorkflowPage(
                fileName: url.lastPathComponent, file: url.relativePath, check: check, isValid: isValid, source: source ?? "", site: site,
                context: context, submitted: submitted, inputErrors: inputErrors, notice: notice)
        }

        private init(
            fileName: String, file: String, check: WorkflowFileCheck, isValid: Bool, source: String, site: DashboardSite,
            context: DashboardContext, submitted: FormFields?, inputErrors: [String: String], notice: String?
        ) {
            let configuration = site.configuration
            let workflow = check.workflow
            let shown = check.diagnostics.map { $0.withCommandLineRemedy(commandName: configuration.commandName) }
            var sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if sourceLines.count > 1, sourceLines.last == "" { sourceLines.removeLast() }
            func row(_ diagnostic: Diagnostic) -> DiagnosticRow {
                let location = diagnostic.location
                let inThisFile = location.file == file
                var caret: String?
                var excerpt: String?
                let lineText =
                    inThisFile
                    ? (location.line >= 1 && location.line <= sourceLines.count ? sourceLines[location.line - 1] : nil)
                    : check.sources[location.file].flatMap { text in
                        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                        return location.line >= 1 && location.line <= lines.count ? String(lines[location.line - 1]) : nil
                    }
                if let lineText {
                    let scalars = Array(lineText.unicodeScalars)
                    let start = min(max(location.column - 1, 0), scalars.count)
                    var leading = ""
                    leading.unicodeScalars.append(contentsOf: scalars[..<start])
                    var marked = ""
                    marked.unicodeScalars.append(contentsOf: scalars[start..<min(scalars.count, start + max(location.length ?? 1, 1))])
                    caret = CaretLine.draw(leading: leading, marked: marked)
                    if !inThisFile { excerpt = lineText }
                }
                return DiagnosticRow(
                    severity: diagnostic.severity.rawValue, message: diagnostic.message,
                    help: diagnostic.help.map { $0.components(separatedBy: "\nhelp: ") } ?? [],
                    location: "\(location.file):\(location.line):\(location.column)", href: inThisFile ? "#line-\(location.line)" : nil,
                    caret: caret, excerpt: excerpt)
            }
            let rows = shown.map(row)
            var byLine: [Int: [DiagnosticRow]] = [:]
            for (diagnostic, row) in zip(shown, rows) where diagnostic.location.file == file {
                byLine[min(max(diagnostic.location.line, 1), max(sourceLines.count, 1)), default: []].append(row)
            }
            chrome = PageChrome(title: workflow?.name?.value ?? fileName, section: .workflows, context: context)
            self.fileName = fileName
            self.file = file
            name = workflow?.name?.value ?? (fileName as NSString).deletingPathExtension
            description = workflow?.description?.value
            triggers = workflow?.automation.map { $0.triggerPhrases.joined(separator: "; ") }
            self.isValid = isValid
            canRunHere = check.isValid
            diagnostics = rows
            hasDiagnostics = !rows.isEmpty
            errorCount = check.diagnostics.filter { $0.severity == .error }.count
            if errorCount == rows.count {
                diagnosticsTitle = errorCount == 1 ? "1 error" : "\(errorCount) errors"
            } else {
                diagnosticsTitle = rows.count == 1 ? "1 diagnostic" : "\(rows.count) diagnostics"
            }
            lines = sourceLines.enumerated().map { index, text in
                let found = byLine[index + 1] ?? []
                return SourceLine(number: index + 1, text: text, diagnostics: found, hasDiagnostics: !found.isEmpty)
            }
            if let workflow, check.isValid {
                form = RunForm(
                    workflow: workflow, fileName: fileName, catalog: configuration.catalog, zone: configuration.timeZone, submitted: submitted,
                    errors: inputErrors)
            }
            hasInputs = !(workflow?.inputs.isEmpty ?? true)
            self.notice = notice
        }
    }
#endif
