import Foundation

/// A JSON value with the line and column it starts at, so that a configuration file's
/// problems are reported where they are.
///
/// ```swift
/// let root = try LocatedJSON.parse(#"{"mcpServers": {}}"#)
/// root.location   // line 1, column 1
/// ```
struct LocatedJSON: Sendable {
    /// Where a value or key starts: 1-based line and column (in characters), and its length.
    struct Location: Sendable, Hashable {
        var line: Int
        var column: Int
        var length: Int
    }

    /// What a value is.
    indirect enum Kind: Sendable {
        case object([Member])
        case array([LocatedJSON])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    /// One key of an object with its value.
    struct Member: Sendable {
        var key: String
        var keyLocation: Location
        var value: LocatedJSON
    }

    var kind: Kind
    var location: Location

    /// The name of the value's JSON kind, as messages print it (`an object`, `a string`).
    var kindName: String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// A syntax error: what was expected and where.
    struct SyntaxError: Error, Sendable {
        var message: String
        var location: Location
    }

    /// Parses JSON text.
    ///
    /// - Parameter text: The whole text.
    /// - Returns: Its value.
    /// - Throws: ``SyntaxError`` at the first character that cannot be read.
    static func parse(_ text: String) throws(SyntaxError) -> LocatedJSON {
        var parser = Parser(characters: Array(text))
        parser.skipBlanks()
        let value = try parser.value()
        parser.skipBlanks()
        if parser.index < parser.characters.count {
            throw parser.error("unexpected '\(parser.characters[parser.index])' after the end of the JSON value")
        }
        return value
    }

    private struct Parser {
        let characters: [Character]
        var index = 0
        var line = 1
        var column = 1

        var here: Location { Location(line: line, column: column, length: 1) }

        func error(_ message: String, length: Int = 1) -> SyntaxError {
            SyntaxError(message: message, location: Location(line: line, column: column, length: length))
        }

        mutating func advance() {
            if characters[index] == "\n" || characters[index] == "\r\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }

        mutating func skipBlanks() {
            while index < characters.count, characters[index].isWhitespace { advance() }
        }

        var current: Character? { index < characters.count ? characters[index] : nil }

        mutating func value() throws(SyntaxError) -> LocatedJSON {
            guard let character = current else { throw error("unexpected end of the file: expected a value") }
            let start = here
            switch character {
            case "{": return try object(start: start)
            case "[": return try array(start: start)
            case "\"":
                let text = try string()
                return LocatedJSON(kind: .string(text), location: Location(line: start.line, column: start.column, length: column - start.column))
            case "t": return try literal("true", kind: .bool(true), start: start)
            case "f": return try literal("false", kind: .bool(false), start: start)
            case "n": return try literal("null", kind: .null, start: start)
            case "-", "0"..."9": return try number(start: start)
            case let letter where letter.isLetter: throw bareWord(start: start)
            default: throw error("unexpected '\(character)': expected a value (an object, array, string, number, true, false or null)")
            }
        }

        mutating func object(start: Location) throws(SyntaxError) -> LocatedJSON {
            advance()
            var members: [Member] = []
            skipBlanks()
            if current == "}" {
                advance()
                return LocatedJSON(kind: .object(members), location: start)
            }
            while true {
                skipBlanks()
                guard current == "\"" else {
                    throw error(
                        current == nil ? "unexpected end of the file: expected a key in quotes" : "expected a key in quotes, found '\(current!)'")
                }
                let keyStart = here
                let key = try string()
                let keyLocation = Location(line: keyStart.line, column: keyStart.column, length: column - keyStart.column)
                skipBlanks()
                guard current == ":" else { throw error("expected ':' after the key \"\(key)\"") }
                advance()
                skipBlanks()
                members.append(Member(key: key, keyLocation: keyLocation, value: try value()))
                skipBlanks()
                switch current {
                case ",": advance()
                case "}":
                    advance()
                    return LocatedJSON(kind: .object(members), location: start)
                case nil: throw error("unexpected end of the file: expected ',' or '}'")
                case let other?: throw error("expected ',' or '}', found '\(other)'")
                }
            }
        }

        mutating func array(start: Location) throws(SyntaxError) -> LocatedJSON {
            advance()
            var elements: [LocatedJSON] = []
            skipBlanks()
            if current == "]" {
                advance()
                return LocatedJSON(kind: .array(elements), location: start)
            }
            while true {
                skipBlanks()
                elements.append(try value())
                skipBlanks()
                switch current {
                case ",": advance()
                case "]":
                    advance()
                    return LocatedJSON(kind: .array(elements), location: start)
                case nil: throw error("unexpected end of the file: expected ',' or ']'")
                case let other?: throw error("expected ',' or ']', found '\(other)'")
                }
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            advance()
            var text = ""
            while let character = current {
                switch character {
                case "\"":
                    advance()
                    return text
                case "\\":
                    advance()
                    guard let escaped = current else { break }
                    switch escaped {
                    case "\"", "\\", "/": text.append(escaped)
                    case "b": text.append("\u{8}")
                    case "f": text.append("\u{C}")
                    case "n": text.append("\n")
                    case "r": text.append("\r")
                    case "t": text.append("\t")
                    case "u":
                        let digits = String(characters[(index + 1)..<min(index + 5, characters.count)])
                        guard digits.count == 4, let code = UInt32(digits, radix: 16) else {
                            throw error("expected four hexadecimal digits after '\\u'")
                        }
                        text.unicodeScalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                        for _ in 0..<4 { advance() }
                    default: throw error("unknown escape '\\\(escaped)' in a string")
                    }
                    advance()
                case "\n": throw error("line break inside a string: end the string with '\"' first")
                default:
                    text.append(character)
                    advance()
                }
            }
            throw error("unexpected end of the file inside a string")
        }

        mutating func literal(_ word: String, kind: Kind, start: Location) throws(SyntaxError) -> LocatedJSON {
            let startIndex = index
            for expected in word {
                guard current == expected else {
                    index = startIndex
                    column = start.column
                    throw bareWord(start: start)
                }
                advance()
            }
            return LocatedJSON(kind: kind, location: Location(line: start.line, column: start.column, length: word.count))
        }

        /// A word that is not `true`, `false` or `null`: probably a string without its quotes.
        func bareWord(start: Location) -> SyntaxError {
            var end = index
            while end < characters.count, characters[end].isLetter || characters[end].isNumber || "_-.".contains(characters[end]) {
                end += 1
            }
            let found = String(characters[index..<max(end, index + 1)])
            return SyntaxError(
                message: "unexpected '\(found)': expected a value (strings are written in double quotes)",
                location: Location(line: start.line, column: start.column, length: found.count))
        }

        mutating func number(start: Location) throws(SyntaxError) -> LocatedJSON {
            var text = ""
            while let character = current, "+-0123456789.eE".contains(character) {
                text.append(character)
                advance()
            }
            guard let number = Double(text) else {
                throw SyntaxError(
                    message: "'\(text)' is not a number", location: Location(line: start.line, column: start.column, length: text.count))
            }
            return LocatedJSON(kind: .number(number), location: Location(line: start.line, column: start.column, length: text.count))
        }
    }
}
