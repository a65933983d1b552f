import Foundation
import IntentKit

/// The interaction of an intent performed for the engine: every question becomes a request
/// to the engine (`interaction/requestValue`, `interaction/requestDisambiguation`,
/// `interaction/requestConfirmation`) carrying the perform's id, answered by the engine's own
/// interaction (a terminal, `--answer`, or none).
///
/// An engine that cannot ask answers -32003; the question then fails as
/// ``InteractionError/cannotAsk(_:)`` does in process, naming the question.
///
/// ```swift
/// let performer = IntentPerformer(catalog: catalog, interaction: EngineInteraction(server: server, requestID: .int(7)))
/// ```
struct EngineInteraction: Interaction {
    let server: ExtensionServer
    /// The id of the `intents/perform` request the questions belong to.
    let requestID: IntentValue

    func requestValue(_ request: ValueRequest) async throws -> IntentValue {
        let answer = try await ask(
            "interaction/requestValue",
            [
                "name": .string(request.name), "question": .string(request.question), "type": .string(request.type.description),
                "suggestions": .list(request.suggestions.map(IntentValue.string))
            ],
            orElse: {
                try await NoInteraction().requestValue(ValueRequest(name: $0, question: $1, type: request.type, suggestions: request.suggestions))
            })
        guard case .dictionary(let members) = answer, let value = members["value"] else {
            throw InteractionError.invalidAnswer(name: request.name, answer: answer.displayText, reason: "the answer has no 'value'")
        }
        do {
            return try await ProtocolValues.convert(value, to: request.type, field: "value")
        } catch let error as ProtocolError {
            throw InteractionError.invalidAnswer(name: request.name, answer: value.displayText, reason: error.message)
        }
    }

    func requestChoice(_ request: ChoiceRequest) async throws -> Int {
        let answer = try await ask(
            "interaction/requestDisambiguation",
            ["name": .string(request.name), "question": .string(request.question), "options": .list(request.options.map(IntentValue.string))],
            orElse: { try await NoInteraction().requestChoice(ChoiceRequest(name: $0, question: $1, options: request.options)) })
        guard case .dictionary(let members) = answer, case .int(let index)? = members["index"] else {
            throw InteractionError.invalidAnswer(name: request.name, answer: answer.displayText, reason: "the answer has no whole-number 'index'")
        }
        guard request.options.indices.contains(index) else {
            throw InteractionError.invalidAnswer(
                name: request.name, answer: String(index), reason: "the index must be from 0 to \(request.options.count - 1)")
        }
        return index
    }

    func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
        var params: [String: IntentValue] = ["name": .string(request.name), "question": .string(request.question)]
        if let preview = request.preview { params["preview"] = .string(preview) }
        let answer = try await ask(
            "interaction/requestConfirmation", params,
            orElse: { try await NoInteraction().requestConfirmation(ConfirmationRequest(name: $0, question: $1, preview: request.preview)) })
        guard case .dictionary(let members) = answer, case .bool(let confirmed)? = members["confirmed"] else {
            throw InteractionError.invalidAnswer(name: request.name, answer: answer.displayText, reason: "the answer has no boolean 'confirmed'")
        }
        return confirmed
    }

    /// Asks the engine; -32003 becomes the question that could not be asked (what
    /// ``NoInteraction`` throws for it), -32001 a cancellation.
    private func ask<Answer>(
        _ method: String, _ params: [String: IntentValue], orElse cannotAsk: (String, String) async throws -> Answer
    ) async throws -> IntentValue {
        var params = params
        params["requestId"] = requestID
        do {
            return try await server.request(method, params: params)
        } catch let error as ProtocolError {
            switch error.code {
            case ProtocolError.cannotAskCode:
                var name = params["name"]?.displayText ?? ""
                var question = params["question"]?.displayText ?? ""
                if case .string(let given)? = error.data?["name"] { name = given }
                if case .string(let given)? = error.data?["question"] { question = given }
                _ = try await cannotAsk(name, question)
                throw error
            case ProtocolError.cancelledCode:
                throw CancellationError()
            default:
                throw EngineAnswerError(method: method, error: error)
            }
        }
    }
}

/// The engine answered a question with an error other than "cannot ask".
struct EngineAnswerError: Error, CustomStringConvertible {
    var method: String
    var error: ProtocolError

    var description: String { "the engine answered \(method) with error \(error.code): \(error.message)" }
}
