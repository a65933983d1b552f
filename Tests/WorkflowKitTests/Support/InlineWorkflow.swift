import Clockwork
import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// A workflow written in a test, validated and run with no apps installed: the loops, errors
/// and branches of the language need none.
///
/// ```swift
/// let result = try await InlineWorkflow.run("steps: [ { show: hi } ]", fileName: "hi.yaml")
/// ```
///
/// A test of time gives a ``ManualClock`` as `clock`, runs in a task, and advances the clock.
enum InlineWorkflow {
    /// Loads, validates (expecting no problem) and runs the text, by `clock`.
    static func run(
        _ text: String, fileName: String, inputs: [String: IntentValue] = [:], clock: any EngineClock = .system
    ) async throws -> WorkflowRunResult {
        let workflow = try WorkflowLoader.load(text: text, fileName: fileName)
        let problems = WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow).map(summary)
        #expect(problems.isEmpty, "\(problems)")
        return try await WorkflowRunner(catalog: IntentCatalog(apps: []), clock: clock).run(workflow, inputs: inputs)
    }

    /// Loads and runs the text by `clock`, expecting the run to fail, and returns its error.
    static func failure(_ text: String, fileName: String, clock: any EngineClock = .system) async throws -> WorkflowRunError {
        let workflow = try WorkflowLoader.load(text: text, fileName: fileName)
        do {
            let result = try await WorkflowRunner(catalog: IntentCatalog(apps: []), clock: clock).run(workflow)
            Issue.record("expected the run to fail, got \(result.output)")
            throw CancellationError()
        } catch let error as WorkflowRunError {
            return error
        }
    }
}
