import Foundation
import IntentKit

extension WorkflowExecution {
    /// `run:` runs another workflow file, confined to the naming file's folder and the
    /// workflows folder, with `with:` as its inputs; outputs its output.
    ///
    /// ```yaml
    /// - id: found
    ///   run: add-and-open.yaml
    ///   with: { title: Emma }
    /// ```
    func execute(_ nested: RunStep, in scope: RunScope, record: inout StepTrace, frame: StepFrame) async throws -> IntentValue {
        let workflow = frame.workflow
        let url: URL
        do {
            url = try NestedWorkflows.resolve(nested.workflow, from: workflow)
        } catch var error as WorkflowRunError {
            error.sources = sources
            throw error
        }
        let key = NestedWorkflows.identity(ofFile: url.path)
        if frame.callers.contains(key) || key == NestedWorkflows.identity(ofFile: workflow.fileName) {
            throw WorkflowRunError(
                "'\(nested.workflow.value)' runs itself (\((frame.callers + [key]).joined(separator: " → ")))",
                at: nested.workflow.location, sources: sources)
        }
        let child: Workflow
        do {
            child = try WorkflowLoader.load(contentsOf: url)
        } catch {
            throw WorkflowRunError("'\(nested.workflow.value)' has errors:\n\(error.rendered())", at: nested.workflow.location, sources: sources)
        }
        let values = self.values
        var inputs: [String: IntentValue] = [:]
        for input in nested.inputs { inputs[input.name.value] = try values.evaluate(input.value, in: scope) }
        record.inputs = inputs
        return try await run(
            child, inputs: inputs, depth: frame.depth + 1,
            callers: frame.callers + [NestedWorkflows.identity(ofFile: workflow.fileName)])
    }
}
