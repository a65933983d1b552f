#if Web
    import Foundation
    import WorkflowKit

    /// `/workflows`: every workflow file of the folder with its name, description, triggers,
    /// inputs, whether it is valid (as `shortcuts validate` checks it), and whether it can run from
    /// the pages (which cannot ask questions).
    struct WorkflowsPage: Sendable {
        struct Row: Sendable {
            var fileName: String
            var href: String
            var name: String
            var description: String?
            /// Its `automation:` triggers in words, when it has any.
            var triggers: String?
            var inputCount: Int
            var isValid: Bool
            var errorCount: Int
            /// `2 errors`, for a file that is not valid.
            var checkText: String
            /// Whether it can run from the dashboard: it asks no question.
            var runsHere: Bool
        }

        var chrome: PageChrome
        var folder: String
        var rows: [Row]
        var hasRows: Bool

        static func make(site: DashboardSite, context: DashboardContext) async throws -> WorkflowsPage {
            let configuration = site.configuration
            let files = WorkflowFiles(directory: configuration.workflows)
            let rows = try await offload {
                files.names.map { name in
                    let url = files.directory.appendingPathComponent(name)
                    let check = WorkflowFileCheck(contentsOf: url, catalog: configuration.catalog, secrets: configuration.secrets)
                    let runsHere =
                        check.isValid
                        && WorkflowFileCheck(contentsOf: url, catalog: configuration.catalog, isHeadless: true, secrets: configuration.secrets)
                            .isValid
                    let workflow = check.workflow
                    let errors = check.diagnostics.filter { $0.severity == .error }.count
                    return Row(
                        fileName: name, href: WorkflowFiles.href(name), name: workflow?.name?.value ?? (name as NSString).deletingPathExtension,
                        description: workflow?.description?.value, triggers: workflow?.automation.map { $0.triggerPhrases.joined(separator: "; ") },
                        inputCount: workflow?.inputs.count ?? 0, isValid: check.isValid,
                        errorCount: errors, checkText: errors == 1 ? "1 error" : "\(errors) errors", runsHere: runsHere)
                }
            }
            return WorkflowsPage(
                chrome: PageChrome(title: "Workflows", section: .workflows, context: context), folder: configuration.workflows.relativePath,
                rows: rows, hasRows: !rows.isEmpty)
        }
    }
#endif
