import IntentKit

/// A Pratt parser for the inside of a `${…}`.
///
/// Grammar, loosest first:
///
///     expression  = coalesce [ "?" expression ":" expression ]
///     binary      = unary { operator unary }     (?? < || < && < == != < < <= > >= < + - < * / %)
///     unary       = ( "-" | "!" ) unary | postfix
///     postfix     = primary { "." name | "?." name | "[" expression "]" | "(" arguments ")" }
///     primary     = number | text | true | false | null | name | "(" expression ")"
///                 | "[" [ expression { "," expression } ] "]"
///                 | "{" [ text ":" expression { "," text ":" expression } ] "}"
struct ExpressionParser {
    private let tokens: [ExpressionToken]
    private var position = 0
    private let locate: (Int, Int) -> SourceLocation
    private var depth = 0

    /// The deepest nesting accepted, so that hostile input cannot exhaust the stack.
    static let maximumDepth = 64

    /// Parses tokens; `locate(start, end)` turns offsets into a location.
    init(tokens: [ExpressionToken], locate: @escaping (Int, Int) -> SourceLocation) {
        self.tokens = tokens
        self.locate = locate
    }

    /// Parses the whole token list as one expression.
    mutating func parse() throws(ExpressionSyntaxError) -> ExpressionNode {
        let node = try expression()
        guard case .end = current.kind else {
            throw ExpressionSyntaxError(message: "unexpected '\(spelling(current))'", offset: current.start)
        }
        return node
    }

    private var current: ExpressionToken { tokens[position] }

    private func spelling(_ token: ExpressionToken) -> String {
        switch token.kind {
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .text: "text"
        case .name(let name): name
        case .symbol(let symbol): symbol
        case .end: "end"
        }
    }

    private func isSymbol(_ symbol: String) -> Bool {
        if case .symbol(symbol) = current.kind { return true }
        return false
    }

    private mutating func expect(_ symbol: String, _ what: String) throws(ExpressionSyntaxError) -> ExpressionToken {
        guard isSymbol(symbol) else {
            throw ExpressionSyntaxError(message: "expected \(what)", offset: current.start)
        }
        defer { position += 1 }
        return current
    }

    private func location(of token: ExpressionToken) -> SourceLocation { locate(token.start, token.end) }

    private mutating func expression() throws(ExpressionSyntaxError) -> ExpressionNode {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw ExpressionSyntaxError(message: "the expression is nested too deeply", offset: current.start)
        }
        let condition = try binary(minimumPrecedence: 1)
        guard isSymbol("?") else { return condition }
        let question = current
        position += 1
        let then = try expression()
        _ = try expect(":", "':' after the value when the condition holds")
        let otherwise = try expression()
        return ExpressionNode(kind: .conditional(condition, then, otherwise), location: location(of: question))
    }

    private mutating func binary(minimumPrecedence: Int) throws(ExpressionSyntaxError) -> ExpressionNode {
        var left = try unary()
        while case .symbol(let symbol) = current.kind, let op = ExpressionNode.BinaryOperator(rawValue: symbol),
            op.precedence >= minimumPrecedence
        {
            let token = current
            position += 1
            // `??` groups to the right; every other operator to the left.
            let right = try binary(minimumPrecedence: op == .coalesce ? op.precedence : op.precedence + 1)
            left = ExpressionNode(kind: .binary(op, left, right), location: location(of: token))
        }
        return left
    }

    private mutating func unary() throws(ExpressionSyntaxError) -> ExpressionNode {
        let token = current
        guard case .symbol(let symbol) = token.kind, let op = ExpressionNode.UnaryOperator(rawValue: symbol) else {
            return try postfix()
        }
        let here = location(of: token)
        position += 1
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw ExpressionSyntaxError(message: "the expression is nested too deeply", offset: token.start)
        }
        let operand = try unary()
        // A minus before a number is part of the number, so `items[-1]` stays a path.
        if op == .negate {
            switch operand.kind {
            case .literal(.int(let value)): return ExpressionNode(kind: .literal(.int(-value)), location: here)
            case .literal(.double(let value)): return ExpressionNode(kind: .literal(.double(-value)), location: here)
            default: break
            }
        }
        return ExpressionNode(kind: .unary(op, operand), location: here)
    }

    private mutating func postfix() throws(ExpressionSyntaxError) -> ExpressionNode {
        var node = try primary()
        while case .symbol(let symbol) = current.kind {
            switch symbol {
            case ".", "?.":
                position += 1
                guard case .name(let name) = current.kind else {
                    throw ExpressionSyntaxError(message: "expected a property name after '\(symbol)'", offset: current.start)
                }
                node = ExpressionNode(kind: .member(node, name, nullSafe: symbol == "?."), location: location(of: current))
                position += 1
            case "[":
                position += 1
                let index = try expression()
                _ = try expect("]", "']'")
                node = ExpressionNode(kind: .index(node, index), location: index.location)
            case "(":
                guard case .variable(let name) = node.kind else {
                    throw ExpressionSyntaxError(message: "only a function name can be called", offset: current.start)
                }
                position += 1
                let arguments = try elements(closedBy: ")")
                node = ExpressionNode(kind: .call(name, arguments), location: node.location)
            default:
                return node
            }
        }
        return node
    }

    private mutating func elements(closedBy closing: String) throws(ExpressionSyntaxError) -> [ExpressionNode] {
        var elements: [ExpressionNode] = []
        if isSymbol(closing) {
            position += 1
            return elements
        }
        while true {
            elements.append(try expression())
            if isSymbol(",") {
                position += 1
                continue
            }
            _ = try expect(closing, "',' or '\(closing)'")
            return elements
        }
    }

    private mutating func primary() throws(ExpressionSyntaxError) -> ExpressionNode {
        let token = current
        let here = location(of: token)
        switch token.kind {
        case .integer(let value):
            position += 1
            return ExpressionNode(kind: .literal(.int(value)), location: here)
        case .number(let value):
            position += 1
            return ExpressionNode(kind: .literal(.double(value)), location: here)
        case .text(let text):
            position += 1
            return ExpressionNode(kind: .literal(.string(text)), location: here)
        case .name(let name):
            position += 1
            switch name {
            case "true": return ExpressionNode(kind: .literal(.bool(true)), location: here)
            case "false": return ExpressionNode(kind: .literal(.bool(false)), location: here)
            case "null": return ExpressionNode(kind: .literal(.null), location: here)
            default: return ExpressionNode(kind: .variable(name), location: here)
            }
        case .symbol("("):
            position += 1
            let inner = try expression()
            _ = try expect(")", "')'")
            return inner
        case .symbol("["):
            position += 1
            return ExpressionNode(kind: .list(try elements(closedBy: "]")), location: here)
        case .symbol("{"):
            position += 1
            var keys: [String] = []
            var values: [ExpressionNode] = []
            if isSymbol("}") {
                position += 1
                return ExpressionNode(kind: .dictionary(keys: [], values: []), location: here)
            }
            while true {
                let keyToken = current
                switch keyToken.kind {
                case .text(let key), .name(let key): keys.append(key)
                default: throw ExpressionSyntaxError(message: "expected a key in quotes", offset: keyToken.start)
                }
                position += 1
                _ = try expect(":", "':' after the key")
                values.append(try expression())
                if isSymbol(",") {
                    position += 1
                    continue
                }
                _ = try expect("}", "',' or '}'")
                return ExpressionNode(kind: .dictionary(keys: keys, values: values), location: here)
            }
        case .end:
            throw ExpressionSyntaxError(message: "expected a value", offset: token.start)
        case .symbol(let symbol):
            throw ExpressionSyntaxError(message: "unexpected '\(symbol)'", offset: token.start)
        }
    }
}
