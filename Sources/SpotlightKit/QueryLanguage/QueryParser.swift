import Foundation

/// A token of the query language with the 1-based column where it starts.
struct QueryToken: Sendable {
    enum Kind: Sendable, Equatable {
        case identifier(String)
        case string(StringPattern)
        case number(Double)
        case time(TimeValue)
        case comparison(ComparisonOperator, MatchModifiers)
        case and
        case or
        case not
        case leftParen
        case rightParen
        case comma
        case star
        case end
    }

    var kind: Kind
    var column: Int
    var text: String
}

/// Splits a query string into tokens.
struct QueryLexer {
    private let source: String
    private let characters: [Character]
    private var position = 0

    init(source: String) {
        self.source = source
        self.characters = Array(source)
    }

    private func error(_ column: Int, _ message: String) -> SpotlightError {
        .invalidQuery(query: source, column: column, message: message)
    }

    private var current: Character? { position < characters.count ? characters[position] : nil }
    private func peek(_ offset: Int = 1) -> Character? {
        position + offset < characters.count ? characters[position + offset] : nil
    }

    mutating func tokenize() throws -> [QueryToken] {
        var tokens: [QueryToken] = []
        while true {
            while let character = current, character.isWhitespace { position += 1 }
            guard let character = current else {
                tokens.append(QueryToken(kind: .end, column: characters.count + 1, text: ""))
                return tokens
            }
            let column = position + 1
            switch character {
            case "(":
                position += 1
                tokens.append(QueryToken(kind: .leftParen, column: column, text: "("))
            case ")":
                position += 1
                tokens.append(QueryToken(kind: .rightParen, column: column, text: ")"))
            case ",":
                position += 1
                tokens.append(QueryToken(kind: .comma, column: column, text: ","))
            case "*":
                position += 1
                tokens.append(QueryToken(kind: .star, column: column, text: "*"))
            case "&":
                guard peek() == "&" else { throw error(column, "Unexpected '&'; write '&&' to combine expressions with AND") }
                position += 2
                tokens.append(QueryToken(kind: .and, column: column, text: "&&"))
            case "|":
                guard peek() == "|" else { throw error(column, "Unexpected '|'; write '||' to combine expressions with OR") }
                position += 2
                tokens.append(QueryToken(kind: .or, column: column, text: "||"))
            case "!":
                if peek() == "=" {
                    position += 2
                    tokens.append(try comparison(.notEqual, column: column, text: "!="))
                } else {
                    position += 1
                    tokens.append(QueryToken(kind: .not, column: column, text: "!"))
                }
            case "=":
                if peek() == "=" { position += 2 } else { position += 1 }
                tokens.append(try comparison(.equal, column: column, text: "=="))
            case "<":
                if peek() == "=" {
                    position += 2
                    tokens.append(try comparison(.lessOrEqual, column: column, text: "<="))
                } else {
                    position += 1
                    tokens.append(try comparison(.less, column: column, text: "<"))
                }
            case ">":
                if peek() == "=" {
                    position += 2
                    tokens.append(try comparison(.greaterOrEqual, column: column, text: ">="))
                } else {
                    position += 1
                    tokens.append(try comparison(.greater, column: column, text: ">"))
                }
            case "\"", "'":
                tokens.append(try string(quote: character))
            case "$":
                tokens.append(try time())
            default:
                if character.isNumber && character.isASCII
                    || (character == "-" || character == "+" || character == ".") && (peek()?.isASCII ?? false) && (peek()?.isNumber ?? false)
                {
                    tokens.append(try number())
                } else if Self.isIdentifierStart(character) {
                    tokens.append(identifier())
                } else {
                    throw error(column, "Unexpected character '\(character)'")
                }
            }
        }
    }

    static func isIdentifierStart(_ character: Character) -> Bool {
        character.isLetter || character == "_"
    }

    static func isIdentifierPart(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "." || character == "-" || character == ":"
    }

    /// An operator, optionally followed by bracketed modifiers as in `==[cd]`.
    private mutating func comparison(_ op: ComparisonOperator, column: Int, text: String) throws -> QueryToken {
        var modifiers: MatchModifiers = []
        if current == "[" {
            position += 1
            while let character = current, character != "]" {
                modifiers.insert(try modifier(character, column: position + 1))
                position += 1
            }
            guard current == "]" else { throw error(column, "Unterminated modifier list after '\(text)'; expected ']'") }
            position += 1
        }
        return QueryToken(kind: .comparison(op, modifiers), column: column, text: text)
    }

    private func modifier(_ character: Character, column: Int) throws -> MatchModifiers {
        switch character {
        case "c": return .caseInsensitive
        case "d": return .diacriticInsensitive
        case "w": return .wordBased
        case "t": return .tokenized
        default:
            throw error(
                column,
                "Unknown modifier '\(character)'; the modifiers are c (case-insensitive), d (diacritic-insensitive), w (word-based) and t (tokenized)"
            )
        }
    }

    private mutating func string(quote: Character) throws -> QueryToken {
        let column = position + 1
        position += 1
        var elements: [PatternElement] = []
        var closed = false
        while let character = current {
            if character == "\\" {
                guard let next = peek() else {
                    throw error(position + 1, "A backslash at the end of the query escapes nothing")
                }
                elements.append(.literal(next))
                position += 2
            } else if character == quote {
                position += 1
                closed = true
                break
            } else if character == "*" {
                elements.append(.wildcard)
                position += 1
            } else {
                elements.append(.literal(character))
                position += 1
            }
        }
        guard closed else {
            throw error(column, "Unterminated string: the \(quote) opened here is never closed")
        }
        if elements.count > QueryLimits.maxPatternLength {
            throw error(column, "The string is \(elements.count) characters long; the limit is \(QueryLimits.maxPatternLength)")
        }
        var modifiers: MatchModifiers = []
        while let character = current, character.isLetter {
            modifiers.insert(try modifier(character, column: position + 1))
            position += 1
        }
        let text = String(characters[(column - 1)..<position])
        return QueryToken(kind: .string(StringPattern(elements: elements, modifiers: modifiers)), column: column, text: text)
    }

    private mutating func number() throws -> QueryToken {
        let start = position
        if current == "-" || current == "+" { position += 1 }
        if current == "0", let x = peek(), x == "x" || x == "X" {
            position += 2
            let digitsStart = position
            while let character = current, character.isHexDigit { position += 1 }
            let digits = String(characters[digitsStart..<position])
            guard let value = Int64(digits, radix: 16) else {
                throw error(start + 1, "Malformed hexadecimal number")
            }
            let negative = characters[start] == "-"
            return QueryToken(kind: .number(Double(negative ? -value : value)), column: start + 1, text: String(characters[start..<position]))
        }
        while let character = current, character.isASCII, character.isNumber { position += 1 }
        if current == "." {
            position += 1
            while let character = current, character.isASCII, character.isNumber { position += 1 }
        }
        if let character = current, character == "e" || character == "E",
            let next = peek(), next.isNumber || ((next == "-" || next == "+") && (peek(2)?.isNumber ?? false))
        {
            position += 2
            while let character = current, character.isASCII, character.isNumber { position += 1 }
        }
        let text = String(characters[start..<position])
        if let character = current, Self.isIdentifierPart(character), character != "." {
            throw error(position + 1, "Unexpected '\(character)' after the number \(text)")
        }
        guard let value = Double(text) else { throw error(start + 1, "Malformed number '\(text)'") }
        guard value.isFinite else { throw error(start + 1, "The number \(text) is too large") }
        return QueryToken(kind: .number(value), column: start + 1, text: text)
    }

    private mutating func identifier() -> QueryToken {
        let start = position
        while let character = current, Self.isIdentifierPart(character) { position += 1 }
        let text = String(characters[start..<position])
        return QueryToken(kind: .identifier(text), column: start + 1, text: text)
    }

    private static let timeNames = ["now", "today", "yesterday", "this_week", "this_month", "this_year", "iso"]

    private mutating func time() throws -> QueryToken {
        let start = position
        let prefix = Array("$time.")
        guard position + prefix.count <= characters.count, Array(characters[position..<(position + prefix.count)]) == prefix else {
            throw error(start + 1, "Unknown variable; the only variable is $time, as in $time.today or $time.now(-3600)")
        }
        position += prefix.count
        let nameStart = position
        while let character = current, character.isLetter || character == "_" { position += 1 }
        let name = String(characters[nameStart..<position])
        guard Self.timeNames.contains(name) else {
            throw error(
                nameStart + 1, "Unknown time value '$time.\(name)'; use one of " + Self.timeNames.map { "$time.\($0)" }.joined(separator: ", "))
        }
        var argumentText: String?
        var argumentColumn = position + 1
        if current == "(" {
            let open = position
            position += 1
            while let character = current, character.isWhitespace { position += 1 }
            argumentColumn = position + 1
            let argumentStart = position
            if current == "\"" || current == "'" {
                let quote = current!
                position += 1
                while let character = current, character != quote { position += 1 }
                guard current == quote else { throw error(argumentStart + 1, "Unterminated string in $time.\(name)(…)") }
                argumentText = String(characters[(argumentStart + 1)..<position])
                position += 1
            } else {
                while let character = current, character != ")" { position += 1 }
                argumentText = String(characters[argumentStart..<position]).trimmingCharacters(in: .whitespaces)
            }
            while let character = current, character.isWhitespace { position += 1 }
            guard current == ")" else { throw error(open + 1, "Expected ')' to close the argument of $time.\(name)") }
            position += 1
        }
        let text = String(characters[start..<position])
        let value: TimeValue
        if name == "iso" {
            guard let argumentText, !argumentText.isEmpty else {
                throw error(start + 1, "$time.iso needs an ISO-8601 date, as in $time.iso(2024-01-02T00:00:00Z)")
            }
            guard let date = ISO8601Formatting.date(from: argumentText) else {
                throw error(
                    argumentColumn, "'\(argumentText)' is not an ISO-8601 date; write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss with an optional Z or ±hh:mm")
            }
            value = .iso(date)
        } else {
            var offset = 0.0
            if let argumentText {
                guard let number = Double(argumentText), number.isFinite else {
                    throw error(argumentColumn, "The offset of $time.\(name) must be a number, found '\(argumentText)'")
                }
                offset = number
            }
            if name != "now" && offset != offset.rounded() {
                throw error(argumentColumn, "The offset of $time.\(name) must be a whole number")
            }
            // Checked before converting, so that no offset can overflow an Int or the calendar.
            let limit = QueryLimits.maxTimeOffset(name)
            guard abs(offset) <= limit else {
                throw error(
                    argumentColumn,
                    "The offset of $time.\(name) must be between -\(Int(limit)) and \(Int(limit)) \(QueryLimits.timeUnit(name)), found \(argumentText ?? "")"
                )
            }
            switch name {
            case "now": value = .now(seconds: offset)
            case "today": value = .today(days: Int(offset))
            case "yesterday": value = .yesterday(days: Int(offset))
            case "this_week": value = .thisWeek(weeks: Int(offset))
            case "this_month": value = .thisMonth(months: Int(offset))
            default: value = .thisYear(years: Int(offset))
            }
        }
        return QueryToken(kind: .time(value), column: start + 1, text: text)
    }
}

/// Builds a ``QueryNode`` from tokens by recursive descent.
///
/// ```
/// query      := or-expr END
/// or-expr    := and-expr ( "||" and-expr )*
/// and-expr   := unary ( "&&" unary )*
/// unary      := "!" unary | primary
/// primary    := "(" or-expr ")" | in-range | comparison
/// in-range   := "InRange" "(" attribute "," scalar "," scalar ")"
/// comparison := attribute operator value
/// attribute  := identifier | "*"
/// operator   := ( "==" | "=" | "!=" | "<" | ">" | "<=" | ">=" ) ( "[" modifier* "]" )?
/// value      := string modifier* | number | time | identifier
/// ```
struct QueryParser {
    private let source: String
    private var tokens: [QueryToken] = []
    private var index = 0
    private var depth = 0

    init(source: String) {
        self.source = source
    }

    private func error(_ column: Int, _ message: String) -> SpotlightError {
        .invalidQuery(query: source, column: column, message: message)
    }

    private var current: QueryToken { tokens[index] }

    mutating func parse() throws -> QueryNode {
        let length = source.count
        if length > QueryLimits.maxQueryLength {
            throw error(
                QueryLimits.maxQueryLength + 1,
                "The query is \(length) characters long; the limit is \(QueryLimits.maxQueryLength) characters")
        }
        var lexer = QueryLexer(source: source)
        tokens = try lexer.tokenize()
        if case .end = current.kind {
            throw error(1, "The query is empty; write a comparison such as title == \"value\"")
        }
        let node = try orExpression()
        guard case .end = current.kind else {
            if case .rightParen = current.kind {
                throw error(current.column, "Unbalanced ')': no '(' is open here")
            }
            throw error(current.column, "Unexpected '\(current.text)' after a complete expression; combine expressions with && or ||")
        }
        try QueryValidator(source: source).validate(node)
        return node
    }

    private mutating func orExpression() throws -> QueryNode {
        var node = try andExpression()
        while case .or = current.kind {
            index += 1
            node = .or(node, try andExpression())
        }
        return node
    }

    private mutating func andExpression() throws -> QueryNode {
        var node = try unary()
        while case .and = current.kind {
            index += 1
            node = .and(node, try unary())
        }
        return node
    }

    /// `!` written several times in a row negates once or not at all: `!!a` is `a`.
    private mutating func unary() throws -> QueryNode {
        var negated = false
        while case .not = current.kind {
            index += 1
            negated.toggle()
        }
        let node = try primary()
        return negated ? .not(node) : node
    }

    private mutating func primary() throws -> QueryNode {
        let token = current
        switch token.kind {
        case .leftParen:
            depth += 1
            defer { depth -= 1 }
            if depth > QueryLimits.maxNestingDepth {
                throw error(
                    token.column,
                    "Parentheses nest more than \(QueryLimits.maxNestingDepth) deep here; "
                        + "the limit is \(QueryLimits.maxNestingDepth) (chains of && or || need no parentheses)")
            }
            index += 1
            if case .rightParen = current.kind {
                throw error(current.column, "Empty parentheses; put an expression between '(' and ')'")
            }
            let node = try orExpression()
            guard case .rightParen = current.kind else {
                throw error(current.column, "Expected ')' to close the '(' at column \(token.column)" + found(current))
            }
            index += 1
            return node
        case .identifier(let name) where name.caseInsensitiveCompare("InRange") == .orderedSame:
            if case .leftParen = tokens[index + 1].kind {
                return try inRange()
            }
            return try comparison()
        case .identifier, .star:
            return try comparison()
        case .end:
            throw error(token.column, "The query ends where an expression was expected")
        case .comparison:
            throw error(token.column, "Expected an attribute name before '\(token.text)'")
        default:
            throw error(token.column, "Expected an attribute name or '(', found '\(token.text)'")
        }
    }

    private func found(_ token: QueryToken) -> String {
        if case .end = token.kind { return ", but the query ends" }
        return ", found '\(token.text)'"
    }

    private mutating func attribute() throws -> AttributeName {
        let token = current
        switch token.kind {
        case .identifier(let name):
            index += 1
            return AttributeName(name: name, column: token.column)
        case .star:
            index += 1
            return AttributeName(name: "*", column: token.column)
        default:
            throw error(token.column, "Expected an attribute name" + found(token))
        }
    }

    private mutating func comparison() throws -> QueryNode {
        let attribute = try attribute()
        guard case .comparison(let op, let bracketModifiers) = current.kind else {
            throw error(current.column, "Expected a comparison operator (==, !=, <, >, <=, >=) after '\(attribute.name)'" + found(current))
        }
        index += 1
        let valueToken = current
        var value = try self.value()
        if !bracketModifiers.isEmpty {
            guard case .string(var pattern) = value else {
                throw error(valueToken.column, "Modifiers apply to quoted strings only")
            }
            pattern.modifiers.formUnion(bracketModifiers)
            value = .string(pattern)
        }
        return .comparison(attribute: attribute, op: op, value: value, valueColumn: valueToken.column)
    }

    private mutating func value() throws -> QueryValue {
        let token = current
        switch token.kind {
        case .string(let pattern):
            index += 1
            return .string(pattern)
        case .number(let number):
            index += 1
            return .number(number)
        case .time(let time):
            index += 1
            return .time(time)
        case .identifier(let word):
            if word.count > QueryLimits.maxPatternLength {
                throw error(token.column, "The word is \(word.count) characters long; the limit is \(QueryLimits.maxPatternLength)")
            }
            index += 1
            return .string(StringPattern(elements: word.map { .literal($0) }, modifiers: []))
        case .star:
            index += 1
            return .string(StringPattern(elements: [.wildcard], modifiers: []))
        case .end:
            throw error(token.column, "Expected a value after the operator, but the query ends")
        default:
            throw error(token.column, "Expected a value (a quoted string, a number or a $time value), found '\(token.text)'")
        }
    }

    private mutating func inRange() throws -> QueryNode {
        let open = current.column
        index += 2
        let attribute = try attribute()
        try expectComma(after: "the attribute of InRange")
        let lowerColumn = current.column
        let lower = try value()
        try expectComma(after: "the lower bound of InRange")
        let upperColumn = current.column
        let upper = try value()
        guard case .rightParen = current.kind else {
            throw error(current.column, "Expected ')' to close InRange( at column \(open)" + found(current))
        }
        index += 1
        return .inRange(attribute: attribute, lower: lower, upper: upper, lowerColumn: lowerColumn, upperColumn: upperColumn)
    }

    private mutating func expectComma(after what: String) throws {
        guard case .comma = current.kind else {
            throw error(current.column, "Expected ',' after \(what)" + found(current))
        }
        index += 1
    }
}

/// Checks operators and values against the kinds of the attributes they apply to.
struct QueryValidator {
    let source: String

    private func error(_ column: Int, _ message: String) -> SpotlightError {
        .invalidQuery(query: source, column: column, message: message)
    }

    func validate(_ node: QueryNode) throws {
        switch node {
        case .and:
            for operand in node.operands(ofAnd: true) { try validate(operand) }
        case .or:
            for operand in node.operands(ofAnd: false) { try validate(operand) }
        case .not(let inner):
            try validate(inner)
        case .comparison(let attribute, let op, let value, let valueColumn):
            let kind = AttributeCatalog.lookup(attribute.name)?.kind
            switch value {
            case .string(let pattern):
                if op.isOrdering {
                    throw error(valueColumn, "Operator '\(op.rawValue)' compares numbers and dates; strings can only be compared with == or !=")
                }
                if let kind, !kind.isText, !pattern.isPresenceTest {
                    throw error(
                        valueColumn, "'\(attribute.name)' holds \(kind.noun); compare it with a number or a $time value, or test presence with \"*\"")
                }
            case .number, .time:
                if let kind, kind.isText {
                    throw error(valueColumn, "'\(attribute.name)' holds text; compare it with a quoted string")
                }
                if attribute.name == "*" {
                    throw error(valueColumn, "The '*' attribute searches text; compare it with a quoted string")
                }
            }
        case .inRange(let attribute, let lower, let upper, let lowerColumn, let upperColumn):
            if let kind = AttributeCatalog.lookup(attribute.name)?.kind, kind.isText {
                throw error(attribute.column, "InRange needs a numeric or date attribute; '\(attribute.name)' holds text")
            }
            if attribute.name == "*" {
                throw error(attribute.column, "InRange needs a numeric or date attribute, not '*'")
            }
            for (bound, column) in [(lower, lowerColumn), (upper, upperColumn)] {
                if case .string = bound {
                    throw error(column, "InRange bounds must be numbers or $time values")
                }
            }
        }
    }
}
