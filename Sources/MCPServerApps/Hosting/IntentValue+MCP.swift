import Foundation
import IntentKit
import MCP

extension IntentValue {
    /// The value as a tool's JSON argument: dates as ISO 8601 text, enum cases as their raw
    /// values, files as paths, URLs as text, entities as `{"type","id","title",…}`.
    ///
    /// ```swift
    /// IntentValue.list([.int(1), .string("a")]).mcpValue   // [1, "a"]
    /// ```
    package var mcpValue: Value {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .date(let value): .string(DateText.format(value))
        case .url(let value): .string(value.absoluteString)
        case .file(let value): .string(value.fileURL.path)
        case .list(let values): .array(values.map(\.mcpValue))
        case .dictionary(let values): .object(values.mapValues(\.mcpValue))
        case .enumCase(let value): .string(value.rawValue)
        case .entity(let value):
            .object(
                [
                    "type": .string(value.typeName), "id": .string(value.identifier), "title": .string(value.title),
                    "properties": .object(value.properties.mapValues(\.mcpValue))
                ].merging(value.subtitle.map { ["subtitle": .string($0)] } ?? [:]) { first, _ in first })
        }
    }
}

extension Value {
    /// The value as the engine's: objects become dictionaries (so later steps read
    /// `${step.key}`), arrays lists, data a `data:` URL with its base64 text.
    ///
    /// ```swift
    /// Value.object(["temperature": 21.5]).intentValue   // .dictionary(["temperature": .double(21.5)])
    /// ```
    package var intentValue: IntentValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .data(let mimeType, let data): .string("data:\(mimeType ?? "application/octet-stream");base64,\(data.base64EncodedString())")
        case .array(let values): .list(values.map(\.intentValue))
        case .object(let values): .dictionary(values.mapValues(\.intentValue))
        }
    }
}
