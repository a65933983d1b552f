/// Splits the inside of a `${…}` into tokens.
///
/// Numbers are `12`, `3.5` or `1e3`; text is `"…"` or `'…'` with the escapes `\\`, `\"`,
/// `\'`, `\n`, `\t` and `\u{…}`; names start with a letter or `_`.
struct ExpressionLexer {
    private let scalars: [Unicode.Scalar]
    private var cursor: Int
    private let limit: Int

    /// Reads `scalars[start..<end]`.
    init(_ scalars: [Unicode.Scalar], from start: Int, to end: Int) {
        self.scalars = scalars
        self.cursor = start
        self.limit = end
    }

    private static let symbols: [String] = [
        "==", "!=", "<=", ">=", "&&", "||", "??", "?.",
        "+", "-", "*", "/", "%", "<", ">", "!", "?", ":", ",", ".", "(", ")", "[", "]", "{", "}"
    ]

    /// Every token up to and including ``ExpressionToken/Kind/end``.
    mutating func tokens() throws(ExpressionSyntaxError) -> [ExpressionToken] {
        var tokens: [ExpressionToken] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        cursor + offset < limit ? scalars[cursor + offset] : nil
    }

    private mutating func next() throws(ExpressionSyntaxError) -> ExpressionToken {
        while let scalar = peek(), scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { cursor += 1 }
        let start = cursor
        guard let scalar = peek() else { return ExpressionToken(kind: .end, start: cursor, end: cursor) }
        if NameSyntax.isNameStart(scalar) {
            while let next = peek(), NameSyntax.isNameContinuation(next) { cursor += 1 }
            return ExpressionToken(kind: .name(text(from: start)), start: start, end: cursor)
        }
        if scalar.isASCIIDigit {
            return try number(from: start)
        }
        if scalar == "\"" || scalar == "'" {
            return try quoted(by: scalar, from: start)
        }
        for symbol in Self.symbols where matches(symbol) {
            // `c?.5` starts a conditional, not a member: a name never starts with a digit.
            if symbol == "?.", let after = peek(2), after.isASCIIDigit { continue }
            cursor += symbol.unicodeScalars.count
            return ExpressionToken(kind: .symbol(symbol), start: start, end: cursor)
        }
        throw ExpressionSyntaxError(message: "unexpected '\(Character(scalar))'", offset: start)
    }

    private func matches(_ symbol: String) -> Bool {
        for (offset, part) in symbol.unicodeScalars.enumerated() where peek(offset) != part { return false }
        return true
    }

    private func text(from start: Int) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<cursor])
        return text
    }

    private mutating func number(from start: Int) throws(ExpressionSyntaxError) -> ExpressionToken {
        var isInteger = true
        while let next = peek(), next.isASCIIDigit { cursor += 1 }
        if peek() == ".", let after = peek(1), after.isASCIIDigit {
            isInteger = false
            cursor += 1
            while let next = peek(), next.isASCIIDigit { cursor += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            var lookahead = 1
            if let sign = peek(1), sign == "+" || sign == "-" { lookahead = 2 }
            if let digit = peek(lookahead), digit.isASCIIDigit {
                isInteger = false
                cursor += lookahead
                while let next = peek(), next.isASCIIDigit { cursor += 1 }
            }
        }
        if let next = peek(), NameSyntax.isNameStart(next) {
            throw ExpressionSyntaxError(message: "expected a variable name", offset: start)
        }
        let written = text(from: start)
        if isInteger {
            guard let value = Int(written) else {
                throw ExpressionSyntaxError(message: "number is too large", offset: start)
            }
            return ExpressionToken(kind: .integer(value), start: start, end: cursor)
        }
        guard let value = Double(written), value.isFinite else {
            throw ExpressionSyntaxError(message: "number is too large", offset: start)
        }
        return ExpressionToken(kind: .number(value), start: start, end: cursor)
    }

    private mutating func quoted(by quote: Unicode.Scalar, from start: Int) throws(ExpressionSyntaxError) -> ExpressionToken {
        cursor += 1
        var value = String.UnicodeScalarView()
        while true {
            guard let scalar = peek() else {
                throw ExpressionSyntaxError(
                    message: "unterminated text: \(quote) has no closing \(quote)", offset: start,
                    help: "close the text with \(quote)")
            }
            cursor += 1
            if scalar == quote { break }
            guard scalar == "\\" else {
                value.append(scalar)
                continue
            }
            guard let escaped = peek() else { continue }
            cursor += 1
            switch escaped {
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "\\", "\"", "'", "$": value.append(escaped)
            case "u":
                guard peek() == "{", let close = (cursor..<limit).first(where: { scalars[$0] == "}" }) else {
                    throw ExpressionSyntaxError(message: "expected '{' after '\\u'", offset: cursor - 2, help: "write '\\u{E9}'")
                }
                var hex = ""
                hex.unicodeScalars.append(contentsOf: scalars[(cursor + 1)..<close])
                guard let code = UInt32(hex, radix: 16), let unicode = Unicode.Scalar(code) else {
                    throw ExpressionSyntaxError(message: "'\(hex)' is not a Unicode scalar in hexadecimal", offset: cursor - 2)
                }
                value.append(unicode)
                cursor = close + 1
            default:
                throw ExpressionSyntaxError(
                    message: "unknown escape '\\\(Character(escaped))'", offset: cursor - 2,
                    help: "the escapes are \\\\, \\\", \\', \\n, \\t, \\r and \\u{…}")
            }
        }
        return ExpressionToken(kind: .text(String(value)), start: start, end: cursor)
    }
}

extension Unicode.Scalar {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
