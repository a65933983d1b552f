import Foundation
import IntentKit

/// JSON text to values and back. Objects become dictionaries, arrays lists, whole numbers `Int`
/// and other numbers `Double`; a mistake is reported with its line and column.
///
/// ```swift
/// try JSONFunctions.parse(#"{"title": "Emma", "year": 1815}"#)   // .dictionary([title: Emma, year: 1815])
/// try JSONFunctions.parse("{\n  \"a\": tru\n}")
/// // throws: invalid JSON at line 2, column 8: expected a value, found 'tru'
/// JSONFunctions.encode(.list([.int(1)]), pretty: false)           // "[1]"
/// ```
public enum JSONFunctions {
    /// Reads JSON text.
    ///
    /// - Parameter text: The JSON text (any value at the top: object, array, string, number…).
    /// - Returns: The value.
    /// - Throws: ``ValueFunctionError/invalidJSON(line:column:reason:)`` at the first mistake.
    public static func parse(_ text: String) throws -> IntentValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        if parser.position < parser.bytes.count {
            throw parser.error("unexpected \(parser.found()) after the value")
        }
        return value
    }

    /// Writes a value as JSON with sorted keys: pretty (indented by two spaces) or compact on one line.
    ///
    /// Dates are written in ISO 8601, enum cases as their raw values, entities as
    /// `{type, id, title, subtitle, properties}`.
    public static func encode(_ value: IntentValue, pretty: Bool = true) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A recursive-descent JSON reader (RFC 8259) that knows where it is.
struct JSONParser {
    let bytes: [UInt8]
    var position = 0
    static let maximumDepth = 512

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ reason: String, at offset: Int? = nil) -> ValueFunctionError {
        let end = min(offset ?? position, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
        return .invalidJSON(line: line, column: column, reason: reason)
    }

    /// What is at the current position, as an error names it.
    /// What stands at the position, quoted for an error: a misspelt `true`, `false` or `null`
    /// whole (`'tru'`), anything else by its first character alone, so that an error never
    /// quotes more of a text that may hold a secret.
    func found() -> String {
        guard position < bytes.count else { return "the end of the text" }
        var end = position
        while end < bytes.count, end - position < 5, !Self.isDelimiter(bytes[end]) { end += 1 }
        let word = String(decoding: bytes[position..<end], as: UTF8.self)
        if !word.isEmpty, ["true", "false", "null"].contains(where: { $0.hasPrefix(word) }) { return "'" + word + "'" }
        let rest = String(decoding: bytes[position..<min(bytes.count, position + 4)], as: UTF8.self)
        return "'" + String(rest.first.map(String.init) ?? "") + "'"
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        [
            UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: ","), UInt8(ascii: "]"),
            UInt8(ascii: "}"), UInt8(ascii: ":")
        ].contains(byte)
    }

    mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
    }

    mutating func value(depth: Int) throws -> IntentValue {
        guard depth < Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
        guard position < bytes.count else { throw error("expected a value, found the end of the text") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default:
            for (word, value) in [("true", IntentValue.bool(true)), ("false", .bool(false)), ("null", .null)] where matches(word) {
                position += word.utf8.count
                return value
            }
            throw error("expected a value, found \(found())")
        }
    }

    private func matches(_ word: String) -> Bool {
        let utf8 = Array(word.utf8)
        guard position + utf8.count <= bytes.count, Array(bytes[position..<position + utf8.count]) == utf8 else { return false }
        return position + utf8.count == bytes.count || Self.isDelimiter(bytes[position + utf8.count])
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { throw error("expected \(what), found \(found())") }
        position += 1
    }

    private mutating func object(depth: Int) throws -> IntentValue {
        let start = position
        position += 1
        var entries: [String: IntentValue] = [:]
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .dictionary(entries)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw error("the object opened at \(describe(start)) is not closed with '}'") }
            guard bytes[position] == UInt8(ascii: "\"") else { throw error("expected a key in double quotes, found \(found())") }
            let key = try string()
            try expect(UInt8(ascii: ":"), "':' after the key \"\(key)\"")
            skipWhitespace()
            entries[key] = try value(depth: depth + 1)
            skipWhitespace()
            guard position < bytes.count else { throw error("the object opened at \(describe(start)) is not closed with '}'") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .dictionary(entries)
            }
            throw error("expected ',' or '}' after the value of \"\(key)\", found \(found())")
        }
    }

    private mutating func array(depth: Int) throws -> IntentValue {
        let start = position
        position += 1
        var elements: [IntentValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .list(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            guard position < bytes.count else { throw error("the array opened at \(describe(start)) is not closed with ']'") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .list(elements)
            }
            throw error("expected ',' or ']' in the array, found \(found())")
        }
    }

    private func describe(_ offset: Int) -> String {
        if case .invalidJSON(let line, let column, _) = error("", at: offset) { return "line \(line), column \(column)" }
        return "offset \(offset)"
    }

    private mutating func string() throws -> String {
        let start = position
        position += 1
        var scalars = String.UnicodeScalarView()
        var runStart = position
        func flush(_ end: Int) {
            scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars)
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                flush(position)
                position += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("a control character (a line break or tab) inside a string must be escaped, as \\n or \\t") }
            if byte == UInt8(ascii: "\\") {
                flush(position)
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code), matches(prefix: "\\u") {
                        position += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw error("\\u\(String(code, radix: 16)) must be followed by a low surrogate")
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default:
                    throw error(
                        "unknown escape '\\\(String(decoding: [escape], as: UTF8.self))' (escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                        at: position - 2)
                }
                runStart = position
                continue
            }
            position += 1
        }
        throw error("the string opened at \(describe(start)) is not closed with '\"'")
    }

    private func matches(prefix: String) -> Bool {
        let utf8 = Array(prefix.utf8)
        return position + utf8.count <= bytes.count && Array(bytes[position..<position + utf8.count]) == utf8
    }

    private mutating func hex4() throws -> UInt32 {
        guard position + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
            throw error("\\u must be followed by four hexadecimal digits")
        }
        position += 4
        return code
    }

    private mutating func number() throws -> IntentValue {
        let start = position
        func digits() -> Int {
            let from = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            return position - from
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let integerDigits = digits()
        guard integerDigits > 0 else { throw error("expected a digit after '-'") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { throw error("a number cannot start with 0", at: integerStart) }
        var isWhole = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            isWhole = false
            guard digits() > 0 else { throw error("expected a digit after '.'") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            isWhole = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isWhole, let integer = Int(text) { return .int(integer) }
        return .double(Double(text) ?? .nan)
    }
}
