#if Web
    import Foundation
    import Hummingbird
    import WorkflowKit

    /// `POST /workflows/NAME/run`: checks the workflow (as a run that cannot ask), reads the
    /// form's values for its inputs, and starts the run, answering with a redirect (303) to the
    /// run's page. A workflow with errors, or values that do not fit their inputs, get the
    /// workflow's page again (422) with the errors located, and no run starts.
    enum RunStart {
        static func response(fileName: String, site: DashboardSite, context: DashboardContext) async throws -> Response {
            let configuration = site.configuration
            let url = try WorkflowFiles(directory: configuration.workflows).url(named: fileName)
            let check = try await offload {
                WorkflowFileCheck(contentsOf: url, catalog: configuration.catalog, isHeadless: true, secrets: configuration.secrets)
            }
            guard let workflow = check.workflow, check.isValid else {
                let page = try await WorkflowPage.make(
                    fileName: url.lastPathComponent, site: site, context: context,
                    notice: "The run did not start: the file has errors, shown below its lines.")
                return .html(site.templates.render(page, template: "workflow"), status: .unprocessableContent)
            }
            let (values, errors) = RunForm.values(from: context.form, for: workflow, catalog: configuration.catalog, times: site.times)
            guard errors.isEmpty else {
                let page = try await WorkflowPage.make(
                    fileName: url.lastPathComponent, site: site, context: context, submitted: context.form, inputErrors: errors,
                    notice: "The run did not start: some values do not fit their inputs.")
                return .html(site.templates.render(page, template: "workflow"), status: .unprocessableContent)
            }
            let id = try await site.launcher.start(workflow, inputs: values)
            site.logger.info("started run \(id.prefix(8)) of \(url.relativePath) from the dashboard (\(context.remoteAddress))")
            return .seeOther("/runs/" + id)
        }
    }
#endif
