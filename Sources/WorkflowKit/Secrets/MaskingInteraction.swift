import IntentKit

/// An interaction whose questions, options, suggestions and previews are masked before they
/// are asked, so that a prompt on the terminal (or a question recorded because it could not be
/// asked) never shows a secret value.
///
/// ```swift
/// let interaction = MaskingInteraction(base: TerminalInteraction(), mask: mask)
/// ```
struct MaskingInteraction: Interaction {
    let base: any Interaction
    let mask: SecretMask

    func requestValue(_ request: ValueRequest) async throws -> IntentValue {
        var masked = request
        masked.question = mask.mask(request.question)
        masked.suggestions = request.suggestions.map { mask.mask($0) }
        return try await base.requestValue(masked)
    }

    func requestChoice(_ request: ChoiceRequest) async throws -> Int {
        var masked = request
        masked.question = mask.mask(request.question)
        masked.options = request.options.map { mask.mask($0) }
        return try await base.requestChoice(masked)
    }

    func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
        var masked = request
        masked.question = mask.mask(request.question)
        masked.preview = mask.mask(request.preview)
        return try await base.requestConfirmation(masked)
    }
}
