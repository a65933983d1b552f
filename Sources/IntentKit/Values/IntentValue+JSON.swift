import Foundation

extension IntentValue: Encodable {
    /// Encodes the value as JSON: dates as ISO 8601 text, enum cases as their raw values and
    /// entities as objects with `type`, `id`, `title`, `subtitle` and `properties`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .int(let number): try container.encode(number)
        case .double(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .date(let date): try container.encode(DateText.format(date))
        case .url(let url): try container.encode(url.absoluteString)
        case .file(let file): try container.encode(file.fileURL.path)
        case .list(let elements): try container.encode(elements)
        case .dictionary(let entries): try container.encode(entries)
        case .enumCase(let value): try container.encode(value.rawValue)
        case .entity(let entity): try container.encode(EncodedEntity(entity))
        }
    }

    private struct EncodedEntity: Encodable {
        var type: String
        var id: String
        var title: String
        var subtitle: String?
        var properties: [String: IntentValue]

        init(_ entity: EntityValue) {
            type = entity.typeName
            id = entity.identifier
            title = entity.title
            subtitle = entity.subtitle
            properties = entity.properties
        }
    }

    /// The value as pretty, key-sorted JSON text.
    ///
    /// ```swift
    /// IntentValue.list([.int(1)]).jsonText   // "[\n  1\n]"
    /// ```
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads a value from JSON text: objects become dictionaries, arrays lists, and numbers
    /// `int` when they are whole.
    ///
    /// - Parameter text: JSON text.
    /// - Returns: The value.
    /// - Throws: The JSON parser's error when the text is not JSON.
    public static func fromJSON(_ text: String) throws -> IntentValue {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        return fromJSONObject(object)
    }

    /// The class of the numbers JSONSerialization makes of `true` and `false`.
    private static let booleanNumberType: ObjectIdentifier = {
        let parsed = try? JSONSerialization.jsonObject(with: Data("[true]".utf8)) as? [Any]
        return ObjectIdentifier(type(of: parsed?.first as AnyObject))
    }()

    static func fromJSONObject(_ object: Any) -> IntentValue {
        switch object {
        case let text as String: return .string(text)
        case let number as NSNumber:
            // JSONSerialization returns booleans as a distinct NSNumber subclass on every platform.
            if ObjectIdentifier(type(of: number)) == booleanNumberType { return .bool(number.boolValue) }
            let kind = UInt8(bitPattern: number.objCType.pointee)
            if kind == UInt8(ascii: "d") || kind == UInt8(ascii: "f") { return .double(number.doubleValue) }
            return .int(number.intValue)
        case let array as [Any]: return .list(array.map(fromJSONObject))
        case let dictionary as [String: Any]: return .dictionary(dictionary.mapValues(fromJSONObject))
        default: return .null
        }
    }
}
