import Foundation
import MCP

/// A JSON-RPC 2.0 error response the server writes without a handler: to a line that is not
/// JSON (`-32700`), not a request (`-32600`), for a method it does not serve (`-32601`), or with
/// parameters its method cannot read (`-32602`).
///
/// Its id is the request's when the request has a readable one (a string or an integer), and
/// `null` otherwise, as JSON-RPC 2.0 requires: never one made up.
///
/// ```swift
/// ErrorAnswer(id: nil, error: .parseError("byte 8: expected a member name, found '}'")).json
/// // {"error":{"code":-32700,"data":{"detail":"byte 8: …"},"message":"Parse error: Invalid JSON: byte 8: …"},"id":null,"jsonrpc":"2.0"}
/// ```
struct ErrorAnswer: Encodable, Equatable, Sendable {
    /// The request's id, `nil` for `null`.
    var id: ID?
    /// The error, with its standard code.
    var error: MCPError

    private enum CodingKeys: String, CodingKey {
        case jsonrpc, id, error
    }

    /// The answer's JSON text, without a newline.
    var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // An ID, an MCPError and a string always encode.
        return (try? encoder.encode(self)) ?? Data()
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("2.0", forKey: .jsonrpc)
        if let id { try container.encode(id, forKey: .id) } else { try container.encodeNil(forKey: .id) }
        try container.encode(error, forKey: .error)
    }
}
