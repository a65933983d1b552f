import Foundation
import IntentKit

/// A JSON-RPC error of the extension protocol: its code, its message and what `data` tells.
///
/// The codes are JSON-RPC's own (-32700 to -32603) and the protocol's (-32000 to -32003), as
/// `Schemas/extension-protocol.md` lists them.
///
/// ```swift
/// throw ProtocolError.invalidParams(field: "intent", "'intent' must be text")
/// ```
struct ProtocolError: Error, CustomStringConvertible, Sendable {
    /// The code.
    var code: Int
    /// What went wrong, in the request's locale.
    var message: String
    /// More about it (`field`, `kind`, `question`, `supported`), or `nil`.
    var data: [String: IntentValue]?

    var description: String { message }

    static let parseError = -32700
    static let invalidRequestCode = -32600
    static let methodNotFoundCode = -32601
    static let invalidParamsCode = -32602
    static let internalErrorCode = -32603
    static let failedCode = -32000
    static let cancelledCode = -32001
    static let unsupportedVersionCode = -32002
    static let cannotAskCode = -32003

    static func invalidRequest(_ message: String) -> ProtocolError {
        ProtocolError(code: invalidRequestCode, message: message)
    }

    static func methodNotFound(_ method: String) -> ProtocolError {
        ProtocolError(code: methodNotFoundCode, message: "unknown method '\(method)'", data: ["method": .string(method)])
    }

    /// Params that are missing, of the wrong kind or name nothing known; `field` names the
    /// member (`intent`, `arguments.title`, `conditions[0].comparator`).
    static func invalidParams(field: String, _ message: String) -> ProtocolError {
        ProtocolError(code: invalidParamsCode, message: message, data: ["field": .string(field)])
    }

    static func failed(kind: String, _ message: String, _ extra: [String: IntentValue] = [:]) -> ProtocolError {
        ProtocolError(code: failedCode, message: message, data: extra.merging(["kind": .string(kind)]) { $1 })
    }

    static let cancelled = ProtocolError(code: cancelledCode, message: "the request was cancelled")

    static func internalError(_ message: String) -> ProtocolError {
        ProtocolError(code: internalErrorCode, message: message)
    }

    /// The error object as JSON-RPC writes it.
    var object: IntentValue {
        var object: [String: IntentValue] = ["code": .int(code), "message": .string(message)]
        if let data { object["data"] = .dictionary(data) }
        return .dictionary(object)
    }

    /// Reads an error object received from the engine.
    init?(object: IntentValue) {
        guard case .dictionary(let members) = object, case .int(let code)? = members["code"] else { return nil }
        self.code = code
        if case .string(let message)? = members["message"] { self.message = message } else { self.message = "error \(code)" }
        if case .dictionary(let data)? = members["data"] { self.data = data }
    }

    init(code: Int, message: String, data: [String: IntentValue]? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }
}

extension ProtocolError {
    /// The error a request that failed is answered with.
    ///
    /// Unknown names and values that do not fit their parameter are invalid params naming the
    /// field; what the intent or its query did is -32000 with a `kind`; a question the engine
    /// could not ask keeps its `name` and `question`.
    ///
    /// - Parameters:
    ///   - error: What the request threw.
    ///   - method: The request's method: other errors are `performFailed` for a perform,
    ///     `queryFailed` for an entity query.
    ///   - localization: The request's locale, for errors that localize themselves.
    /// - Returns: The protocol error.
    static func answering(_ error: any Error, of method: String, in localization: Localization) -> ProtocolError {
        switch error {
        case let error as ProtocolError:
            return error
        case is CancellationError:
            return .cancelled
        case let error as IntentError:
            return answering(error)
        case let error as InteractionError:
            return answering(error)
        default:
            let kind = method == "intents/perform" ? "performFailed" : "queryFailed"
            return .failed(kind: kind, IntentPerformer.message(for: error, in: localization))
        }
    }

    private static func answering(_ error: IntentError) -> ProtocolError {
        switch error {
        case .unknownIntent, .ambiguousIntent:
            return .invalidParams(field: "intent", error.description)
        case .unknownEntity:
            return .invalidParams(field: "entity", error.description)
        case .unknownParameter(_, let name, _, _), .invalidValue(_, let name, _):
            return .invalidParams(field: "arguments.\(name)", error.description)
        case .entityNotFound:
            return .failed(kind: "entityNotFound", error.description)
        case .interaction(_, let interactionError):
            return answering(interactionError)
        case .performFailed(_, let message):
            return .failed(kind: "performFailed", message)
        case .tooManyRequests:
            return .failed(kind: "tooManyRequests", error.description)
        }
    }

    private static func answering(_ error: InteractionError) -> ProtocolError {
        switch error {
        case .cannotAsk(let question):
            return .failed(
                kind: "cannotAsk", error.description,
                [
                    "name": .string(question.name), "question": .string(question.text), "questionKind": .string(question.kind),
                    "options": .list(question.options.map(IntentValue.string))
                ])
        case .declined(let question):
            return .failed(kind: "declined", error.description, ["question": .string(question)])
        case .invalidAnswer(let name, _, _):
            return .failed(kind: "invalidAnswer", error.description, ["name": .string(name)])
        case .endOfInput(let question):
            return .failed(kind: "endOfInput", error.description, ["question": .string(question)])
        }
    }
}
