import IntentKit

/// A precedence parser for the inside of a `${…}`.
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
///
/// Chains of operators and of postfixes are read in loops, and every construct counts toward
/// one limit, ``ExpressionLimits/maximumDepth`` levels: the constructs open around the current
/// token plus the height of the subtree being built. So neither this parser's recursion nor
/// the tree it returns (which the validator and the evaluator walk recursively) can grow past
/// it, whatever the input.
struct ExpressionParser {
    private let tokens: [ExpressionToken]
    private var position = 0
    private let locate: (Int, Int) -> SourceLocation
    /// The constructs open around the current token: parentheses, brackets, braces, a call's
    /// arguments, a branch of `?:`, a prefix operator.
    private var enclosing = 0

    /// A parsed node and its height in levels (a name or a literal is 1).
    private struct Subtree {
        var node: ExpressionNode
        var height: Int
    }

    /// Parses tokens; `locate(start, end)` turns offsets into a location.
    init(tokens: [ExpressionToken], locate: @escaping (Int, Int) -> SourceLocation) {
        self.tokens = tokens
        self.locate = locate
    }

    /// Parses the whole token list as one expression.
    mutating func parse() throws(ExpressionSyntaxError) -> ExpressionNode {
        let tree = try expression()
        guard case .end = current.kind else {
            throw ExpressionSyntaxError(message: "unexpected '\(spelling(current))'", offset: current.start)
        }
        return tree.node
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

    // MARK: - Depth

    /// Opens a construct at `offset`; the caller closes it with ``leave()`` before it builds
    /// the construct's node. (A thrown error ends the whole parse, so nothing is closed then.)
    private mutating func enter(at offset: Int) throws(ExpressionSyntaxError) {
        // What is inside is at least one level more.
        guard enclosing + 2 <= ExpressionLimits.maximumDepth else { throw .nestedTooDeeply(at: offset) }
        enclosing += 1
    }

    private mutating func leave() { enclosing -= 1 }

    /// A node over `children`, one level higher than the highest of them.
    private func subtree(_ kind: ExpressionNode.Kind, at location: SourceLocation, over children: [Subtree], offset: Int)
        throws(ExpressionSyntaxError) -> Subtree
    {
        let height = 1 + children.reduce(0) { max($0, $1.height) }
        guard enclosing + height <= ExpressionLimits.maximumDepth else { throw .nestedTooDeeply(at: offset) }
        return Subtree(node: ExpressionNode(kind: kind, location: location), height: height)
    }

    private func leaf(_ kind: ExpressionNode.Kind, at location: SourceLocation) -> Subtree {
        Subtree(node: ExpressionNode(kind: kind, location: location), height: 1)
    }

    // MARK: - Grammar

    private mutating func expression() throws(ExpressionSyntaxError) -> Subtree {
        let condition = try binary()
        guard isSymbol("?") else { return condition }
        let question = current
        position += 1
        try enter(at: question.start)
        let then = try expression()
        _ = try expect(":", "':' after the value when the condition holds")
        let otherwise = try expression()
        leave()
        return try subtree(
            .conditional(condition.node, then.node, otherwise.node), at: location(of: question), over: [condition, then, otherwise],
            offset: question.start)
    }

    /// Operands and operators of any length, without recursion: an operator waits on a stack
    /// until the next one binds no tighter; `??` groups to the right, every other operator to
    /// the left.
    private mutating func binary() throws(ExpressionSyntaxError) -> Subtree {
        var operands = [try unary()]
        var operators: [(op: ExpressionNode.BinaryOperator, token: ExpressionToken)] = []
        while case .symbol(let symbol) = current.kind, let op = ExpressionNode.BinaryOperator(rawValue: symbol) {
            while let waiting = operators.last,
                waiting.op.precedence > op.precedence || (waiting.op.precedence == op.precedence && op != .coalesce)
            {
                try combine(&operands, operators.removeLast())
            }
            operators.append((op, current))
            position += 1
            operands.append(try unary())
        }
        while let waiting = operators.popLast() {
            try combine(&operands, waiting)
        }
        return operands[0]
    }

    /// Replaces the last two operands by the operator applied to them.
    private func combine(_ operands: inout [Subtree], _ waiting: (op: ExpressionNode.BinaryOperator, token: ExpressionToken))
        throws(ExpressionSyntaxError)
    {
        let right = operands.removeLast()
        let left = operands.removeLast()
        operands.append(
            try subtree(
                .binary(waiting.op, left.node, right.node), at: location(of: waiting.token), over: [left, right], offset: waiting.token.start))
    }

    private mutating func unary() throws(ExpressionSyntaxError) -> Subtree {
        let token = current
        guard case .symbol(let symbol) = token.kind, let op = ExpressionNode.UnaryOperator(rawValue: symbol) else {
            return try postfix()
        }
        let here = location(of: token)
        position += 1
        try enter(at: token.start)
        let operand = try unary()
        leave()
        // A minus before a number is part of the number, so `items[-1]` stays a path.
        if op == .negate {
            switch operand.node.kind {
            case .literal(.int(let value)): return leaf(.literal(.int(-value)), at: here)
            case .literal(.double(let value)): return leaf(.literal(.double(-value)), at: here)
            default: break
            }
        }
        return try subtree(.unary(op, operand.node), at: here, over: [operand], offset: token.start)
    }

    private mutating func postfix() throws(ExpressionSyntaxError) -> Subtree {
        var tree = try primary()
        while case .symbol(let symbol) = current.kind {
            let token = current
            switch symbol {
            case ".", "?.":
                position += 1
                guard case .name(let name) = current.kind else {
                    throw ExpressionSyntaxError(message: "expected a property name after '\(symbol)'", offset: current.start)
                }
                tree = try subtree(.member(tree.node, name, nullSafe: symbol == "?."), at: location(of: current), over: [tree], offset: token.start)
                position += 1
            case "[":
                position += 1
                try enter(at: token.start)
                let index = try expression()
                leave()
                _ = try expect("]", "']'")
                tree = try subtree(.index(tree.node, index.node), at: index.node.location, over: [tree, index], offset: token.start)
            case "(":
                guard case .variable(let name) = tree.node.kind else {
                    throw ExpressionSyntaxError(message: "only a function name can be called", offset: current.start)
                }
                position += 1
                let arguments = try elements(closedBy: ")", openedAt: token)
                tree = try subtree(.call(name, arguments.map(\.node)), at: tree.node.location, over: [tree] + arguments, offset: token.start)
            default:
                return tree
            }
        }
        return tree
    }

    /// The elements up to `closing`, each one level inside the `opening` token.
    private mutating func elements(closedBy closing: String, openedAt opening: ExpressionToken) throws(ExpressionSyntaxError) -> [Subtree] {
        var elements: [Subtree] = []
        if isSymbol(closing) {
            position += 1
            return elements
        }
        try enter(at: opening.start)
        while true {
            elements.append(try expression())
            if isSymbol(",") {
                position += 1
                continue
            }
            _ = try expect(closing, "',' or '\(closing)'")
            leave()
            return elements
        }
    }

    private mutating func primary() throws(ExpressionSyntaxError) -> Subtree {
        let token = current
        let here = location(of: token)
        switch token.kind {
        case .integer(let value):
            position += 1
            return leaf(.literal(.int(value)), at: here)
        case .number(let value):
            position += 1
            return leaf(.literal(.double(value)), at: here)
        case .text(let text):
            position += 1
            return leaf(.literal(.string(text)), at: here)
        case .name(let name):
            position += 1
            switch name {
            case "true": return leaf(.literal(.bool(true)), at: here)
            case "false": return leaf(.literal(.bool(false)), at: here)
            case "null": return leaf(.literal(.null), at: here)
            default: return leaf(.variable(name), at: here)
            }
        case .symbol("("):
            position += 1
            try enter(at: token.start)
            let inner = try expression()
            leave()
            _ = try expect(")", "')'")
            // The parentheses are a level as written, though the tree has no node for them.
            return Subtree(node: inner.node, height: inner.height + 1)
        case .symbol("["):
            position += 1
            let elements = try elements(closedBy: "]", openedAt: token)
            return try subtree(.list(elements.map(\.node)), at: here, over: elements, offset: token.start)
        case .symbol("{"):
            position += 1
            return try dictionary(openedAt: token)
        case .end:
            throw ExpressionSyntaxError(message: "expected a value", offset: token.start)
        case .symbol(let symbol):
            throw ExpressionSyntaxError(message: "unexpected '\(symbol)'", offset: token.start)
        }
    }

    /// `{"key": value, …}` after its `{`.
    private mutating func dictionary(openedAt opening: ExpressionToken) throws(ExpressionSyntaxError) -> Subtree {
        let here = location(of: opening)
        if isSymbol("}") {
            position += 1
            return leaf(.dictionary(keys: [], values: []), at: here)
        }
        try enter(at: opening.start)
        var keys: [String] = []
        var values: [Subtree] = []
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
            leave()
            return try subtree(.dictionary(keys: keys, values: values.map(\.node)), at: here, over: values, offset: opening.start)
        }
    }
}
