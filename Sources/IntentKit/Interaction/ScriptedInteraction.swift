import Foundation

/// Answers questions from answers given in advance (`--answer name=value`, `--yes`), and
/// hands any other question to a fallback (by default ``NoInteraction``, which fails with it).
///
/// - Values: the answer's text, converted to the parameter's type.
/// - Choices: the answer matches an option's title (ignoring case) or is its 1-based number.
/// - Confirmations: `yes/no/true/false`; `confirmAll` (`--yes`) answers yes to the rest.
///
/// ```swift
/// let interaction = ScriptedInteraction(answers: ["authorName": "Delia Owens"], confirmAll: true)
/// ```
public struct ScriptedInteraction: Interaction {
    /// Answers by name.
    public var answers: [String: String]
    /// Whether confirmations without an answer are confirmed.
    public var confirmAll: Bool
    /// Who answers what is not scripted.
    public var fallback: any Interaction

    public init(answers: [String: String] = [:], confirmAll: Bool = false, fallback: any Interaction = NoInteraction()) {
        self.answers = answers
        self.confirmAll = confirmAll
        self.fallback = fallback
    }

    public func requestValue(_ request: ValueRequest) async throws -> IntentValue {
        guard let answer = answers[request.name] else { return try await fallback.requestValue(request) }
        return .string(answer)
    }

    public func requestChoice(_ request: ChoiceRequest) async throws -> Int {
        guard let answer = answers[request.name] else { return try await fallback.requestChoice(request) }
        if let index = ChoiceMatching.index(of: answer, in: request.options) { return index }
        throw InteractionError.invalidAnswer(
            name: request.name, answer: answer,
            reason: "choose one of " + request.options.map { "'\($0)'" }.joined(separator: ", "))
    }

    public func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
        if let answer = answers[request.name] {
            switch answer.lowercased() {
            case "yes", "y", "true", "1": return true
            case "no", "n", "false", "0": return false
            default:
                throw InteractionError.invalidAnswer(name: request.name, answer: answer, reason: "answer yes or no")
            }
        }
        if confirmAll { return true }
        return try await fallback.requestConfirmation(request)
    }
}

/// Finds the option an answer names: its title (exact, then ignoring case) or its number from 1.
package enum ChoiceMatching {
    package static func index(of answer: String, in options: [String]) -> Int? {
        let trimmed = answer.trimmingCharacters(in: .whitespaces)
        if let exact = options.firstIndex(of: trimmed) { return exact }
        let folded = trimmed.lowercased()
        if let match = options.firstIndex(where: { $0.lowercased() == folded }) { return match }
        if let number = Int(trimmed), options.indices.contains(number - 1) { return number - 1 }
        return nil
    }
}
