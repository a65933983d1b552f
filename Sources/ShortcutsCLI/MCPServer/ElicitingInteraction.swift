import Foundation
import IntentKit
import MCP
import MCPServerApps
import Synchronization

/// What the connected MCP client said it can do when it initialized the session.
final class ClientAbilities: Sendable {
    private let elicitation = Mutex(false)

    /// Whether the client answers `elicitation/create` (a form, asked of its user).
    var supportsElicitation: Bool { elicitation.withLock { $0 } }

    /// Records the client's capabilities.
    func learn(_ capabilities: Client.Capabilities) {
        elicitation.withLock { $0 = capabilities.elicitation?.form != nil }
    }
}

/// Asks an intent's or workflow's questions of the MCP client's user, as form elicitations
/// (`elicitation/create`) with one field named after the question's name: a value of the
/// requested type, one of a choice's options, or a yes-or-no for a confirmation.
///
/// When the client did not declare the elicitation capability, every question fails as
/// ``NoInteraction`` fails, quoting the question, so the tool call reports it.
///
/// ```swift
/// let interaction = ElicitingInteraction(server: server, client: abilities)
/// let performer = IntentPerformer(catalog: catalog, interaction: interaction)
/// ```
struct ElicitingInteraction: Interaction {
    /// The server whose client is asked.
    var server: Server
    /// What the client can do.
    var client: ClientAbilities

    func requestValue(_ request: ValueRequest) async throws -> IntentValue {
        guard client.supportsElicitation else { return try await NoInteraction().requestValue(request) }
        var field = Self.field(for: request.type, suggestions: request.suggestions)
        field["title"] = .string(request.question)
        switch try await ask(request.question, name: request.name, field: field) {
        case .answered(let answer): return answer.intentValue
        case .acceptedEmpty, .declined: throw InteractionError.endOfInput(question: request.question)
        }
    }

    func requestChoice(_ request: ChoiceRequest) async throws -> Int {
        guard client.supportsElicitation else { return try await NoInteraction().requestChoice(request) }
        let field: [String: Value] = ["type": "string", "title": .string(request.question), "enum": .array(request.options.map(Value.string))]
        switch try await ask(request.question, name: request.name, field: field) {
        case .answered(let answer):
            let text = answer.stringValue ?? answer.intValue.map(String.init) ?? ""
            guard let index = ChoiceMatching.index(of: text, in: request.options) else {
                throw InteractionError.invalidAnswer(
                    name: request.name, answer: text, reason: "choose one of " + request.options.map { "'\($0)'" }.joined(separator: ", "))
            }
            return index
        case .acceptedEmpty, .declined: throw InteractionError.endOfInput(question: request.question)
        }
    }

    func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
        guard client.supportsElicitation else { return try await NoInteraction().requestConfirmation(request) }
        var field: [String: Value] = ["type": "boolean", "title": .string(request.question), "default": true]
        if let preview = request.preview { field["description"] = .string(preview) }
        switch try await ask(request.question, name: request.name, field: field) {
        case .answered(let answer):
            return answer.boolValue ?? (answer.stringValue.map { ["yes", "true", "y", "1"].contains($0.lowercased()) } ?? false)
        case .acceptedEmpty: return true
        case .declined: return false
        }
    }

    private enum Answer {
        /// The form was accepted with its field.
        case answered(Value)
        /// The form was accepted without its field.
        case acceptedEmpty
        /// The form was declined or cancelled.
        case declined
    }

    /// Sends one form with one field and waits for the user.
    ///
    /// A form declined or cancelled is no answer: a confirmation is then not confirmed, and any
    /// other question fails as input that ended (``InteractionError/endOfInput(question:)``), so
    /// a workflow's `ask` takes its `default:`. A confirmation accepted without its field is
    /// confirmed.
    private func ask(_ question: String, name: String, field: [String: Value]) async throws -> Answer {
        let schema = Elicitation.RequestSchema(properties: [name: .object(field)], required: [name])
        let result = try await server.requestElicitation(message: question, requestedSchema: schema)
        guard result.action == .accept else { return .declined }
        guard let answer = result.content?[name], !answer.isNull else { return .acceptedEmpty }
        return .answered(answer)
    }

    /// The form field for a value of a type: elicitation forms hold only text, numbers,
    /// booleans and choices of text.
    private static func field(for type: IntentValueType, suggestions: [String]) -> [String: Value] {
        switch type {
        case .optional(let wrapped): return field(for: wrapped, suggestions: suggestions)
        case .int: return ["type": "integer"]
        case .double: return ["type": "number"]
        case .bool: return ["type": "boolean"]
        case .date: return ["type": "string", "format": "date-time"]
        case .url: return ["type": "string", "format": "uri"]
        case .enumeration where !suggestions.isEmpty: return ["type": "string", "enum": .array(suggestions.map(Value.string))]
        default:
            guard !suggestions.isEmpty else { return ["type": "string"] }
            return ["type": "string", "description": .string("For example: " + suggestions.joined(separator: ", "))]
        }
    }
}
