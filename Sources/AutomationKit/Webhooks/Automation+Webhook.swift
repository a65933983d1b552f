import Foundation
import IntentKit
import WorkflowKit

extension Automation {
    /// The inputs of a request to the automation's webhook, from its body, checked before any
    /// run starts, so that a server refuses a bad request (422) with the messages.
    ///
    /// - A workflow that declares an input named `body` gets the whole body in it: the text as
    ///   sent when `body` is text (`String`), the parsed JSON otherwise; an empty body gives
    ///   it no value.
    /// - Otherwise the body is a JSON object whose keys are the inputs (an empty body is `{}`).
    ///
    /// The inputs are then checked as ``WorkflowKit/Workflow/checkInputs(_:catalog:)`` checks
    /// them: unknown names, required inputs not given, values of the wrong type.
    ///
    /// ```swift
    /// let workflow = try automation.loadWorkflow(catalog: catalog)
    /// do {
    ///     let inputs = try automation.webhookInputs(fromBody: request.body, workflow: workflow, catalog: catalog)
    ///     let outcome = await automation.runNow(inputs: inputs, trigger: "webhook", workflow: workflow, catalog: catalog, history: history)
    /// } catch {
    ///     respond(422, error.rendered())
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - body: The request's body.
    ///   - workflow: The workflow, as ``loadWorkflow(catalog:)`` read it.
    ///   - catalog: The installed apps, which define entity and enum types.
    /// - Returns: The input values to run the workflow with.
    /// - Throws: ``WorkflowKit/DiagnosticError`` with every problem: a body that is not UTF-8 or
    ///   not JSON, JSON that is not an object (located at the `webhook:` name), and each
    ///   unknown, missing or mistyped input (located at its declaration).
    public func webhookInputs(fromBody body: Data, workflow: Workflow, catalog: IntentCatalog) throws(DiagnosticError) -> [String: IntentValue] {
        let location = workflow.automation?.webhook?.name.location ?? SourceLocation(file: workflow.fileName, line: 1, column: 1)
        func refuse(_ message: String, help: String) -> DiagnosticError {
            DiagnosticError([.error(message, at: location, help: help)], sources: [workflow.fileName: workflow.sourceText])
        }
        let objectHelp = "send a JSON object of the workflow's inputs, such as {\"title\": \"Emma\"}"
        guard let text = String(data: body, encoding: .utf8) else {
            throw refuse("the request body is not UTF-8 text", help: objectHelp)
        }
        let isEmpty = text.allSatisfy(\.isWhitespace)
        var values: [String: IntentValue] = [:]
        if let bodyInput = workflow.inputs.first(where: { $0.name.value == "body" }) {
            if InputTypes.type(named: bodyInput.type.value, in: catalog)?.nonOptional == .string {
                values["body"] = .string(text)
            } else if !isEmpty {
                guard let value = try? IntentValue.fromJSON(text) else {
                    throw refuse(
                        "the request body is not JSON, and input 'body' is \(bodyInput.type.value)",
                        help: "send JSON, or declare 'body: String' for the text as sent")
                }
                values["body"] = value
            }
        } else if !isEmpty {
            guard let value = try? IntentValue.fromJSON(text) else {
                throw refuse("the request body is not JSON", help: objectHelp)
            }
            guard case .dictionary(let object) = value else {
                throw refuse(
                    "the request body is JSON of another kind (\(value.kindName)), not an object of input values",
                    help: objectHelp + ", or declare an input 'body' to receive the whole body")
            }
            values = object
        }
        try workflow.checkInputs(values, catalog: catalog)
        return values
    }
}
