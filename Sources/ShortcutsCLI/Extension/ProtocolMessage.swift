import Foundation
import IntentKit

/// One line of the extension protocol as it was read: a request, a notification or a response.
///
/// ```swift
/// let message = try ProtocolMessage(line: #"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#)
/// // .request(id: .int(1), method: "shutdown", params: [:])
/// ```
enum ProtocolMessage: Sendable {
    /// A request, answered with its id.
    case request(id: IntentValue, method: String, params: ProtocolParams)
    /// A notification: no id, no answer.
    case notification(method: String, params: ProtocolParams)
    /// The answer to a request this side sent.
    case response(id: IntentValue, outcome: Result<IntentValue, ProtocolError>)

    /// Reads one line.
    ///
    /// - Parameter line: The line, without its newline.
    /// - Throws: A ``ProtocolError`` to answer with id `null`: -32700 for text that is not
    ///   JSON, -32600 for JSON that is not a message (with the id, when one could be read, in
    ///   `data.id`).
    init(line: Data) throws(ProtocolErrorWithID) {
        let value: IntentValue
        do {
            value = try IntentValue.fromJSON(String(decoding: line, as: UTF8.self))
        } catch {
            throw ProtocolErrorWithID(id: .null, error: ProtocolError(code: ProtocolError.parseError, message: "the line is not JSON"))
        }
        guard case .dictionary(let members) = value else {
            let what = if case .list = value { "batches are not supported: send one message per line" } else { "a message must be a JSON object" }
            throw ProtocolErrorWithID(id: .null, error: .invalidRequest(what))
        }
        let id = members["id"]
        let answerID = id.flatMap { Self.isValidID($0) ? $0 : nil } ?? .null
        if let version = members["jsonrpc"], version != .string("2.0") {
            throw ProtocolErrorWithID(id: answerID, error: .invalidRequest("'jsonrpc' must be \"2.0\""))
        }
        if let method = members["method"] {
            guard case .string(let name) = method else {
                throw ProtocolErrorWithID(id: answerID, error: .invalidRequest("'method' must be text"))
            }
            let params: ProtocolParams
            switch members["params"] {
            case nil, .null?: params = ProtocolParams([:])
            case .dictionary(let entries)?: params = ProtocolParams(entries)
            default: throw ProtocolErrorWithID(id: answerID, error: .invalidParams(field: "params", "'params' must be an object"))
            }
            guard let id else {
                self = .notification(method: name, params: params)
                return
            }
            guard Self.isValidID(id) else {
                throw ProtocolErrorWithID(id: .null, error: .invalidRequest("'id' must be a number or text"))
            }
            self = .request(id: id, method: name, params: params)
            return
        }
        guard let id, Self.isValidID(id) else {
            throw ProtocolErrorWithID(id: answerID, error: .invalidRequest("a request needs a 'method'"))
        }
        if let error = members["error"] {
            guard let protocolError = ProtocolError(object: error) else {
                throw ProtocolErrorWithID(id: .null, error: .invalidRequest("'error' must be an object with a numeric 'code'"))
            }
            self = .response(id: id, outcome: .failure(protocolError))
        } else if let result = members["result"] {
            self = .response(id: id, outcome: .success(result))
        } else {
            throw ProtocolErrorWithID(id: answerID, error: .invalidRequest("a request needs a 'method'"))
        }
    }

    private static func isValidID(_ id: IntentValue) -> Bool {
        switch id {
        case .int, .string: true
        default: false
        }
    }
}

/// An error to answer, with the id to answer it under (`null` when none could be read).
struct ProtocolErrorWithID: Error {
    var id: IntentValue
    var error: ProtocolError
}

/// A message this side writes: a response, a request or a notification, one line of JSON.
enum OutgoingMessage {
    case result(id: IntentValue, any Encodable & Sendable)
    case error(id: IntentValue, ProtocolError)
    case request(id: IntentValue, method: String, params: IntentValue)
    case notification(method: String, params: IntentValue)

    /// The message as one line of JSON, newline included.
    ///
    /// - Throws: An encoding error for values JSON cannot hold (a double that is not a number).
    func line() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(Envelope(message: self))
        data.append(UInt8(ascii: "\n"))
        return data
    }

    private struct Envelope: Encodable {
        var message: OutgoingMessage

        enum Key: String, CodingKey { case jsonrpc, id, result, error, method, params }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("2.0", forKey: .jsonrpc)
            switch message {
            case .result(let id, let result):
                try container.encode(id, forKey: .id)
                try container.encode(result, forKey: .result)
            case .error(let id, let error):
                try container.encode(id, forKey: .id)
                try container.encode(error.object, forKey: .error)
            case .request(let id, let method, let params):
                try container.encode(id, forKey: .id)
                try container.encode(method, forKey: .method)
                try container.encode(params, forKey: .params)
            case .notification(let method, let params):
                try container.encode(method, forKey: .method)
                try container.encode(params, forKey: .params)
            }
        }
    }
}

/// A request's `params`, read member by member; a member that is missing or of the wrong kind
/// is an invalid-params error naming it.
struct ProtocolParams: Sendable {
    let members: [String: IntentValue]

    init(_ members: [String: IntentValue]) {
        self.members = members
    }

    /// A required text member.
    func string(_ name: String) throws(ProtocolError) -> String {
        guard let value = members[name] else { throw .invalidParams(field: name, "'\(name)' is missing") }
        guard case .string(let text) = value else { throw .invalidParams(field: name, "'\(name)' must be text") }
        return text
    }

    /// An optional text member.
    func optionalString(_ name: String) throws(ProtocolError) -> String? {
        switch members[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw .invalidParams(field: name, "'\(name)' must be text")
        }
    }

    /// An optional whole number.
    func optionalInt(_ name: String) throws(ProtocolError) -> Int? {
        switch members[name] {
        case nil, .null?: return nil
        case .int(let number)?: return number
        default: throw .invalidParams(field: name, "'\(name)' must be a whole number")
        }
    }

    /// A list member (`[]` when missing, unless required).
    func list(_ name: String, required: Bool = false) throws(ProtocolError) -> [IntentValue] {
        switch members[name] {
        case nil where !required, .null? where !required: return []
        case nil, .null?: throw .invalidParams(field: name, "'\(name)' is missing")
        case .list(let elements)?: return elements
        default: throw .invalidParams(field: name, "'\(name)' must be a list")
        }
    }

    /// An object member (`[:]` when missing).
    func object(_ name: String) throws(ProtocolError) -> [String: IntentValue] {
        switch members[name] {
        case nil, .null?: return [:]
        case .dictionary(let entries)?: return entries
        default: throw .invalidParams(field: name, "'\(name)' must be an object")
        }
    }
}
