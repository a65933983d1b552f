import Foundation
import IntentKit

extension SecretMask {
    /// The text fields of ``StepTrace`` this mask covers, and those that hold no text a run
    /// produced. A test compares these with the fields `StepTrace` has, so that a field added
    /// to it is masked here before it can be written.
    static let maskedTraceFields: Set<String> = ["kind", "stepID", "inputs", "output", "dialog", "error", "details"]
    static let unmaskedTraceFields: Set<String> = ["location", "depth", "startedAt", "duration", "branch"]

    /// A step's trace with every text field masked: kind, id, inputs, output, dialog, error and
    /// the details the intent recorded.
    ///
    /// ```swift
    /// let recorded = result.steps.map { mask.mask($0) }
    /// ```
    public func mask(_ trace: StepTrace) -> StepTrace {
        guard !isEmpty else { return trace }
        var masked = trace
        masked.kind = mask(trace.kind)
        masked.stepID = mask(trace.stepID)
        masked.inputs = mask(trace.inputs)
        masked.output = mask(trace.output)
        masked.dialog = mask(trace.dialog)
        masked.error = mask(trace.error)
        masked.details = mask(trace.details)
        return masked
    }

    /// A run's error with its message and help masked.
    ///
    /// ```swift
    /// throw mask.mask(error)
    /// ```
    public func mask(_ error: WorkflowRunError) -> WorkflowRunError {
        guard !isEmpty else { return error }
        var masked = error
        masked.diagnostic.message = mask(error.diagnostic.message)
        masked.diagnostic.help = mask(error.diagnostic.help)
        return masked
    }

    /// Any error a run stops with: a ``WorkflowRunError`` masked field by field, another error
    /// replaced by one that says the same in masked words, when its words hold a secret.
    func mask(_ error: any Error) -> any Error {
        guard !isEmpty else { return error }
        if let error = error as? WorkflowRunError { return mask(error) }
        let text = "\(error)"
        let masked = mask(text)
        return masked == text ? error : MaskedError(description: masked)
    }
}

/// An error whose words held a secret value, with the value masked.
struct MaskedError: Error, CustomStringConvertible, Sendable {
    var description: String
}
