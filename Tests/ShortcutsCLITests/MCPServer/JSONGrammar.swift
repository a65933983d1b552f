import Foundation

/// A JSON value as RFC 8259's grammar reads it, for the fuzz test's oracle: written from the
/// grammar by recursive descent, apart from the server's own scanner, so that the two check
/// each other.
///
/// ```swift
/// JSONGrammar.parse(Array(#"{"id":1}"#.utf8))   // .object([("id", .number("1"))])
/// JSONGrammar.parse(Array("[1,]".utf8))          // nil
/// ```
indirect enum JSONGrammar: Equatable {
    case null
    case bool(Bool)
    /// A number, as written.
    case number(String)
    /// A string; `nil` when its escapes make no Unicode text (a lone surrogate).
    case string(String?)
    case array([JSONGrammar])
    /// Members in order, duplicates kept.
    case object([Member])

    struct Member: Equatable {
        /// The name; `nil` when its escapes make no Unicode text.
        var name: String?
        var value: JSONGrammar
    }

    /// The deepest nesting read, as the server's.
    static let maximumDepth = 256

    /// The value of a text, or `nil` when the text is not JSON (or nests deeper than 256 levels).
    static func parse(_ bytes: [UInt8]) -> JSONGrammar? {
        var parser = Parser(bytes: bytes)
        parser.whitespace()
        guard let value = parser.value(depth: 0) else { return nil }
        parser.whitespace()
        return parser.position == bytes.count ? value : nil
    }

    /// The first member with a name, as a decoder that keeps the first of duplicates reads it.
    subscript(name: String) -> JSONGrammar? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        mutating func whitespace() {
            while position < bytes.count, " \t\n\r".utf8.contains(bytes[position]) { position += 1 }
        }

        mutating func consume(_ text: String) -> Bool {
            let expected = Array(text.utf8)
            guard bytes.count - position >= expected.count, Array(bytes[position..<position + expected.count]) == expected else { return false }
            position += expected.count
            return true
        }

        mutating func value(depth: Int) -> JSONGrammar? {
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "{"): return depth < JSONGrammar.maximumDepth ? object(depth: depth + 1) : nil
            case UInt8(ascii: "["): return depth < JSONGrammar.maximumDepth ? array(depth: depth + 1) : nil
            case UInt8(ascii: "\""): return string().map(JSONGrammar.string)
            case UInt8(ascii: "t"): return consume("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return consume("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return consume("null") ? .null : nil
            default: return number()
            }
        }

        mutating func object(depth: Int) -> JSONGrammar? {
            position += 1
            var members: [Member] = []
            whitespace()
            if consume("}") { return .object([]) }
            while true {
                whitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let name = string() else { return nil }
                whitespace()
                guard consume(":") else { return nil }
                whitespace()
                guard let member = value(depth: depth) else { return nil }
                members.append(Member(name: name, value: member))
                whitespace()
                if consume("}") { return .object(members) }
                guard consume(",") else { return nil }
            }
        }

        mutating func array(depth: Int) -> JSONGrammar? {
            position += 1
            var elements: [JSONGrammar] = []
            whitespace()
            if consume("]") { return .array([]) }
            while true {
                whitespace()
                guard let element = value(depth: depth) else { return nil }
                elements.append(element)
                whitespace()
                if consume("]") { return .array(elements) }
                guard consume(",") else { return nil }
            }
        }

        /// `-? int frac? exp?` with `int = 0 | [1-9] digit*`.
        mutating func number() -> JSONGrammar? {
            let start = position
            func digits() -> Int {
                let first = position
                while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
                return position - first
            }
            _ = consume("-")
            if consume("0") {
            } else if digits() == 0 {
                return nil
            }
            if consume("."), digits() == 0 { return nil }
            if consume("e") || consume("E") {
                if !consume("+") { _ = consume("-") }
                if digits() == 0 { return nil }
            }
            return .number(String(decoding: bytes[start..<position], as: UTF8.self))
        }

        /// The string's text: `.some(nil)` when it is a string whose escapes make no text,
        /// `nil` when it is not a string.
        mutating func string() -> String?? {
            position += 1
            var units: [UInt16] = []
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return .some(Self.text(of: units))
                }
                if byte < 0x20 { return nil }
                if byte == UInt8(ascii: "\\") {
                    guard let escaped = escape() else { return nil }
                    units.append(escaped)
                    continue
                }
                // A run of raw characters, which must be UTF-8.
                let start = position
                while position < bytes.count, bytes[position] >= 0x20, bytes[position] != UInt8(ascii: "\""),
                    bytes[position] != UInt8(ascii: "\\")
                {
                    position += 1
                }
                guard let raw = String(validating: bytes[start..<position], as: UTF8.self) else { return nil }
                units += Array(raw.utf16)
            }
            return nil
        }

        /// The text of UTF-16 units, `nil` when a surrogate stands alone.
        static func text(of units: [UInt16]) -> String? {
            var text = ""
            var iterator = units.makeIterator()
            var decoder = UTF16()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
                case .emptyInput: return text
                case .error: return nil
                }
            }
        }

        /// The UTF-16 unit of one escape; a surrogate is kept as it is.
        mutating func escape() -> UInt16? {
            position += 1
            guard position < bytes.count else { return nil }
            let escaped = bytes[position]
            position += 1
            let simple: [UInt8: UInt16] = [
                UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
                UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09
            ]
            if let unit = simple[escaped] { return unit }
            let hex = Array("0123456789abcdefABCDEF".utf8)
            guard escaped == UInt8(ascii: "u"), bytes.count - position >= 4, bytes[position..<position + 4].allSatisfy(hex.contains),
                let unit = UInt16(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
            else { return nil }
            position += 4
            return unit
        }
    }
}
