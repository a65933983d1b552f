import Foundation

/// A JSON value, as the extension protocol's messages carry them.
///
/// ```swift
/// let message: JSONValue = ["jsonrpc": "2.0", "id": 1, "method": "shutdown"]
/// message.text   // {"jsonrpc":"2.0","id":1,"method":"shutdown"}
/// ```
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member of an object, or `nil`.
    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    package var intValue: Int? {
        switch self {
        case .int(let number): number
        case .double(let number) where number.rounded() == number && abs(number) < 9e15: Int(number)
        default: nil
        }
    }

    package var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    package var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    package var isNull: Bool { self == .null }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .int(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements) { $1 })
    }
    package init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// Parses one JSON text.
    ///
    /// - Throws: The parser's error when the text is not JSON.
    package static func parse(_ data: Data) throws -> JSONValue {
        let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        return JSONValue(object: object)
    }

    /// The class of the numbers JSONSerialization makes of `true` and `false`.
    private static let booleanNumberType: ObjectIdentifier = {
        let parsed = try? JSONSerialization.jsonObject(with: Data("[true]".utf8)) as? [Any]
        return ObjectIdentifier(type(of: parsed?.first as AnyObject))
    }()

    private init(object: Any) {
        switch object {
        case let text as String: self = .string(text)
        case let number as NSNumber:
            if ObjectIdentifier(type(of: number)) == Self.booleanNumberType {
                self = .bool(number.boolValue)
                return
            }
            let kind = UInt8(bitPattern: number.objCType.pointee)
            if kind == UInt8(ascii: "d") || kind == UInt8(ascii: "f") {
                self = .double(number.doubleValue)
            } else {
                self = .int(number.intValue)
            }
        case let array as [Any]: self = .array(array.map(JSONValue.init(object:)))
        case let dictionary as [String: Any]: self = .object(dictionary.mapValues(JSONValue.init(object:)))
        default: self = .null
        }
    }

    /// The value as compact JSON text on one line (keys sorted).
    package var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .int(let number): output += String(number)
        case .double(let number):
            if number.isFinite {
                output += number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) + ".0" : "\(number)"
            } else {
                output += "null"
            }
        case .string(let text): Self.writeString(text, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                Self.writeString(key, to: &output)
                output += ":"
                members[key]!.write(to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                output +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
