import Foundation

/// Checks that a message is one JSON text as RFC 8259 writes it, in one pass over its bytes and
/// without recursion, before anything decodes it.
///
/// Foundation's parsers are lenient where a client's mistake should be named: they take a
/// trailing comma (`[1,]`), and its decoder takes numbers such as `01` or `1.` until a value is
/// read from them. Strings must be UTF-8 without raw control characters. Arrays and objects
/// nest at most ``maximumDepth`` (256) levels: far deeper than any MCP message, and within what
/// a request carries through the SDK's decoding and encoding (Foundation's coders stop at 511).
///
/// ```swift
/// JSONSyntax.problem(in: Data(#"{"id":1,}"#.utf8))   // byte 8: expected a member name, found '}'
/// JSONSyntax.problem(in: Data(#"{"id":1}"#.utf8))    // nil
/// ```
enum JSONSyntax {
    /// The deepest nesting of arrays and objects read.
    static let maximumDepth = 256

    /// Where and why a text is not JSON.
    struct Problem: Error, Equatable, CustomStringConvertible {
        /// The offset of the first byte that does not fit, or the length of a text that ends early.
        var offset: Int
        /// What was expected or found there.
        var reason: String

        var description: String { "byte \(offset): \(reason)" }
    }

    /// What the next bytes must be.
    private enum Expectation {
        case value, firstValueOrEnd, memberName, firstMemberNameOrEnd, separatorOrEnd
    }

    /// The first problem of a text, or `nil` when it is one JSON value.
    ///
    /// - Parameter text: The bytes of the message.
    /// - Returns: The problem, located.
    static func problem(in text: some ContiguousBytes) -> Problem? {
        text.withUnsafeBytes { bytes in
            var scanner = Scanner(bytes: bytes)
            return scanner.scan()
        }
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0
        /// The open arrays (`[`) and objects (`{`), innermost last.
        var open: [UInt8] = []

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        mutating func scan() -> Problem? {
            var expectation = Expectation.value
            while true {
                skipWhitespace()
                guard index < bytes.count else {
                    if open.isEmpty && expectation == .separatorOrEnd { return nil }
                    return Problem(offset: index, reason: "the text ends before its value does")
                }
                let byte = bytes[index]
                switch expectation {
                case .value, .firstValueOrEnd:
                    if expectation == .firstValueOrEnd && byte == UInt8(ascii: "]") {
                        close()
                        expectation = .separatorOrEnd
                    } else if let problem = scanValue(startingWith: byte, then: &expectation) {
                        return problem
                    }
                case .memberName, .firstMemberNameOrEnd:
                    if expectation == .firstMemberNameOrEnd && byte == UInt8(ascii: "}") {
                        close()
                        expectation = .separatorOrEnd
                        continue
                    }
                    guard byte == UInt8(ascii: "\"") else { return unexpected("a member name") }
                    if let problem = scanString() { return problem }
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return unexpected("':' after a member name") }
                    index += 1
                    expectation = .value
                case .separatorOrEnd:
                    guard let container = open.last else { return unexpected("the end of the text after its value") }
                    let end = container == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
                    if byte == UInt8(ascii: ",") {
                        index += 1
                        expectation = container == UInt8(ascii: "[") ? .value : .memberName
                    } else if byte == end {
                        close()
                    } else {
                        return unexpected("',' or '\(Character(Unicode.Scalar(end)))'")
                    }
                }
            }
        }

        private mutating func scanValue(startingWith byte: UInt8, then expectation: inout Expectation) -> Problem? {
            switch byte {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                guard open.count < JSONSyntax.maximumDepth else {
                    return Problem(offset: index, reason: "arrays and objects nest deeper than \(JSONSyntax.maximumDepth) levels")
                }
                open.append(byte)
                index += 1
                expectation = byte == UInt8(ascii: "[") ? .firstValueOrEnd : .firstMemberNameOrEnd
                return nil
            case UInt8(ascii: "\""):
                expectation = .separatorOrEnd
                return scanString()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                expectation = .separatorOrEnd
                return scanNumber()
            case UInt8(ascii: "t"):
                expectation = .separatorOrEnd
                return scanWord("true")
            case UInt8(ascii: "f"):
                expectation = .separatorOrEnd
                return scanWord("false")
            case UInt8(ascii: "n"):
                expectation = .separatorOrEnd
                return scanWord("null")
            default: return unexpected("a value")
            }
        }

        private mutating func close() {
            open.removeLast()
            index += 1
        }

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        private mutating func scanWord(_ word: StaticString) -> Problem? {
            let start = index
            for expected in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
                guard index < bytes.count, bytes[index] == expected else {
                    return Problem(offset: start, reason: "expected \(word)")
                }
                index += 1
            }
            return nil
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        private mutating func scanNumber() -> Problem? {
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { return unexpected("a digit") }
            if bytes[index] == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { return unexpected("a digit after '.'") }
                skipDigits()
            }
            if index < bytes.count, (bytes[index] | 0x20) == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < bytes.count, isDigit(bytes[index]) else { return unexpected("a digit of the exponent") }
                skipDigits()
            }
            return nil
        }

        private func isDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }

        private mutating func skipDigits() {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }

        private mutating func scanString() -> Problem? {
            index += 1
            while index < bytes.count {
                skipPlainCharacters()
                guard index < bytes.count else { break }
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return nil
                case UInt8(ascii: "\\"):
                    if let problem = scanEscape() { return problem }
                case 0x00..<0x20:
                    return Problem(offset: index, reason: "a control character (\(Self.describe(byte))) in a string must be escaped")
                case 0x80...:
                    if let problem = scanUTF8Sequence() { return problem }
                default:
                    index += 1
                }
            }
            return Problem(offset: index, reason: "the text ends inside a string")
        }

        /// Skips the ASCII characters of a string that need no check, the bulk of a long one.
        private mutating func skipPlainCharacters() {
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            var position = index
            let end = bytes.count
            while position < end {
                let byte = base[position]
                if byte < 0x20 || byte >= 0x80 || byte == 0x22 || byte == 0x5C { break }
                position &+= 1
            }
            index = position
        }

        private mutating func scanEscape() -> Problem? {
            let start = index
            index += 1
            guard index < bytes.count else { return Problem(offset: index, reason: "the text ends inside a string") }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                UInt8(ascii: "r"), UInt8(ascii: "t"):
                return nil
            default: break
            }
            guard escaped == UInt8(ascii: "u") else { return Problem(offset: start, reason: "\\\(Self.describe(escaped)) is no escape") }
            for _ in 0..<4 {
                guard index < bytes.count, bytes[index].isHexDigit else { return Problem(offset: start, reason: "\\u needs four hex digits") }
                index += 1
            }
            return nil
        }

        /// One character of two to four bytes, as RFC 3629 allows them: no overlong forms, no
        /// surrogates, nothing past U+10FFFF.
        private mutating func scanUTF8Sequence() -> Problem? {
            let start = index
            let lead = bytes[index]
            let (count, second): (Int, ClosedRange<UInt8>) =
                switch lead {
                case 0xC2...0xDF: (1, 0x80...0xBF)
                case 0xE0: (2, 0xA0...0xBF)
                case 0xE1...0xEC, 0xEE...0xEF: (2, 0x80...0xBF)
                case 0xED: (2, 0x80...0x9F)
                case 0xF0: (3, 0x90...0xBF)
                case 0xF1...0xF3: (3, 0x80...0xBF)
                case 0xF4: (3, 0x80...0x8F)
                default: (0, 0x80...0xBF)
                }
            let invalid = Problem(offset: start, reason: "the bytes are not UTF-8")
            guard count > 0 else { return invalid }
            index += 1
            for position in 0..<count {
                guard index < bytes.count, (position == 0 ? second : 0x80...0xBF).contains(bytes[index]) else { return invalid }
                index += 1
            }
            return nil
        }

        private func unexpected(_ expected: String) -> Problem {
            guard index < bytes.count else { return Problem(offset: index, reason: "expected \(expected), found the end of the text") }
            return Problem(offset: index, reason: "expected \(expected), found \(Self.describe(bytes[index]))")
        }

        private static func describe(_ byte: UInt8) -> String {
            (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16, uppercase: true)
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self | 0x20)
    }
}
