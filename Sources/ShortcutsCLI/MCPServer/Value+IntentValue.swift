import Foundation
import IntentKit
import MCP

extension MCP.Value {
    /// An engine value as MCP JSON, in the engine's value JSON: dates as ISO 8601 text, enum
    /// cases as raw values, entities as `{"type", "id", "title", "subtitle", "properties"}`.
    ///
    /// ```swift
    /// MCP.Value(intentValue: .list([.int(1)]))   // [1]
    /// ```
    init(intentValue: IntentValue) {
        guard let data = try? JSONEncoder().encode(intentValue), let value = try? JSONDecoder().decode(MCP.Value.self, from: data) else {
            self = .null
            return
        }
        self = value
    }

    /// The engine value of MCP JSON: objects become dictionaries, arrays lists, whole numbers
    /// `int`; the engine converts each to the declared type when it is used.
    ///
    /// ```swift
    /// MCP.Value.string("Emma").intentValue   // .string("Emma")
    /// ```
    var intentValue: IntentValue {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .data(let mimeType, let data): .string("data:\(mimeType ?? "application/octet-stream");base64,\(data.base64EncodedString())")
        case .array(let elements): .list(elements.map(\.intentValue))
        case .object(let entries): .dictionary(entries.mapValues(\.intentValue))
        }
    }
}
