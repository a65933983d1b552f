import Foundation
import MCP

/// What one line from the client is, by JSON-RPC 2.0's rules, decided before the MCP server's
/// handlers see it: only a well-formed request for a served method, a notification or a
/// response goes on; anything else is answered here, with the standard code and the request's
/// id when it has a readable one.
///
/// | Line | Outcome |
/// |---|---|
/// | not JSON (RFC 8259), or nested deeper than 256 levels | `-32700`, id `null` |
/// | an array (a batch: MCP 2025-06-18 removed them) or a scalar | `-32600`, id `null` |
/// | an object that is neither a request, a notification nor a response | `-32600`, its id if readable |
/// | a request whose id is not a string or an integer (`null`, `1.5`, `true`, `1e400`) | `-32600`, id `null` |
/// | a request for a method not served | `-32601`, its id |
/// | a request whose `params` its method cannot read | `-32602`, its id |
/// | a notification or a response that does not decode | not answered (a log line) |
///
/// A member given twice counts with its first value, as Foundation's decoder reads it.
/// `params` may be `null`, read as absent.
///
/// ```swift
/// IncomingMessage(Data(#"{"jsonrpc":"2.0","id":7,"method":"tools/lst"}"#.utf8), methods: methods)
/// // .answered(ErrorAnswer(id: 7, error: .methodNotFound("tools/lst")))
/// ```
enum IncomingMessage: Equatable {
    /// A request for a served method, with readable parameters: its handler answers it.
    case request(ID)
    /// A notification; `cancelling` is the request a `notifications/cancelled` names.
    case notification(method: String, cancelling: ID?)
    /// A response to a request the server sent.
    case response(ID)
    /// Not for the handlers: this answer goes back instead.
    case answered(ErrorAnswer)
    /// A notification or response that cannot be read, which JSON-RPC never answers.
    case dropped(reason: String)

    /// Reads a line.
    ///
    /// - Parameters:
    ///   - line: The message, without its newline.
    ///   - methods: The requests the server answers.
    init(_ line: Data, methods: ServedMethods) {
        if let problem = JSONSyntax.problem(in: line) {
            self = .answered(ErrorAnswer(id: nil, error: .parseError(problem.description)))
            return
        }
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: line)
        } catch {
            self = .answered(ErrorAnswer(id: nil, error: .parseError(String(describing: error))))
            return
        }
        self = Self.classify(envelope, line: line, methods: methods)
    }

    private static func classify(_ envelope: Envelope, line: Data, methods: ServedMethods) -> IncomingMessage {
        guard let members = envelope.members else {
            let reason =
                envelope.isArray
                ? "batches are not supported: send each request on its own line (MCP 2025-06-18 removed JSON-RPC batching)"
                : "a message is a JSON object"
            return .answered(ErrorAnswer(id: nil, error: .invalidRequest(reason)))
        }
        let id = members.id?.id
        func invalid(_ reason: String) -> IncomingMessage {
            .answered(ErrorAnswer(id: id, error: .invalidRequest(reason)))
        }
        let isVersion2 = members.jsonrpc == .string("2.0")
        guard let method = members.method else {
            guard members.hasResult || members.hasError else {
                return invalid("a message has a method (a request or a notification), or a result or an error (a response)")
            }
            guard isVersion2, let id, members.hasResult != members.hasError,
                (try? JSONDecoder().decode(Response<ValueMethod>.self, from: line)) != nil
            else { return .dropped(reason: "a response that cannot be read") }
            return .response(id)
        }
        guard case .string(let name) = method else { return invalid("\"method\" is a string") }
        guard isVersion2 else { return invalid(#""jsonrpc" is "2.0""#) }
        guard !members.hasResult && !members.hasError else { return invalid("a request has no \"result\" or \"error\"") }
        switch members.params {
        case nil, .null, .object, .array: break
        default: return invalid("\"params\" is an object")
        }
        guard let idKind = members.id else {
            guard (try? JSONDecoder().decode(Message<ValueNotification>.self, from: line)) != nil else {
                return .dropped(reason: "a \(name) notification that cannot be read")
            }
            let cancelled = name == CancelledNotification.name ? try? JSONDecoder().decode(Message<CancelledNotification>.self, from: line) : nil
            return .notification(method: name, cancelling: cancelled?.params.requestId)
        }
        guard let id = idKind.id else { return invalid("a request's \"id\" is a string or an integer") }
        guard methods.serves(name) else {
            return .answered(ErrorAnswer(id: id, error: .methodNotFound(name)))
        }
        if let problem = methods.parameterProblem(in: line, for: name) {
            return .answered(ErrorAnswer(id: id, error: .invalidParams(problem)))
        }
        return .request(id)
    }
}

/// Requests and responses as the SDK reads them before any method is known.
private struct ValueMethod: Method {
    static let name = ""
    typealias Parameters = Value
    typealias Result = Value
}

/// Notifications as the SDK reads them before any method is known.
private struct ValueNotification: MCP.Notification {
    static let name = ""
    typealias Parameters = Value
}

/// The kind of a JSON value, and its text or integer when a member's meaning needs it.
private enum JSONKind: Decodable, Equatable {
    case null, bool
    case string(String)
    case integer(Int)
    case otherNumber, array, object
    /// A number beyond a `Double`'s range (`1e400`), or a string whose escapes make no
    /// Unicode text (a lone surrogate, `"\ud800"`).
    case unrepresentable

    /// The value as a request id: strings and integers only, as MCP requires.
    var id: ID? {
        switch self {
        case .string(let text): .string(text)
        case .integer(let number): .number(number)
        default: nil
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if (try? container.decode(Bool.self)) != nil {
            self = .bool
        } else if let number = try? container.decode(Int.self) {
            self = .integer(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if (try? decoder.container(keyedBy: MemberName.self)) != nil {
            self = .object
        } else if (try? decoder.unkeyedContainer()) != nil {
            self = .array
        } else if (try? container.decode(Double.self)) != nil {
            self = .otherNumber
        } else {
            self = .unrepresentable
        }
    }
}

private struct MemberName: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The members that say what a message is, read without decoding the others.
private struct Envelope: Decodable {
    struct Members {
        var jsonrpc: JSONKind?
        var id: JSONKind?
        var method: JSONKind?
        var params: JSONKind?
        var hasResult: Bool
        var hasError: Bool
    }

    /// The top-level object's members, `nil` when the message is no object.
    var members: Members?
    /// Whether the message is an array.
    var isArray = false

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: MemberName.self) else {
            isArray = (try? decoder.unkeyedContainer()) != nil
            return
        }
        // Present as null is not absent: `"id": null` makes an invalid request, not a notification.
        func kind(_ name: String) -> JSONKind? {
            let key = MemberName(stringValue: name)
            guard container.contains(key) else { return nil }
            return (try? container.decode(JSONKind.self, forKey: key)) ?? .unrepresentable
        }
        members = Members(
            jsonrpc: kind("jsonrpc"), id: kind("id"), method: kind("method"), params: kind("params"),
            hasResult: container.contains(MemberName(stringValue: "result")), hasError: container.contains(MemberName(stringValue: "error")))
    }
}
