import IntentKit
import Testing

@testable import WorkflowKit

/// The lexer and the Pratt parser: precedence, literals, locations and syntax errors.
@Suite("Expression parser")
struct ExpressionParserTests {
    func parse(_ text: String) throws(DiagnosticError) -> WorkflowExpression? {
        try Template(parsing: text, at: SourceLocation(file: "e.yaml", line: 7, column: 10)).singleExpression
    }

    func errors(_ text: String) -> [String] {
        do {
            _ = try parse(text)
            return []
        } catch {
            return error.diagnostics.map(summary)
        }
    }

    @Test func multiplicationBindsTighterThanAddition() throws {
        let tree = try #require(try parse("${a + b * 2}")?.tree)
        guard case .binary(.add, let left, let right) = tree.kind, case .binary(.multiply, _, _) = right.kind else {
            Issue.record("parsed as \(tree)")
            return
        }
        #expect(left.kind == .variable("a"))
        #expect(left.location.column == 12)
        #expect(tree.location.column == 14)
        #expect(right.location.column == 18)
    }

    @Test func pathsStayPathsAndNegativeIndexesCountFromTheEnd() throws {
        let expression = try #require(try parse("${items[-1].name}"))
        #expect(expression.tree == nil)
        #expect(expression.variable.value == "items")
        #expect(expression.components.count == 2)
        if case .index(let index) = expression.components[0] { #expect(index.value == -1) }
    }

    @Test func literalsOfEveryKind() throws {
        let tree = try #require(try parse(#"${[1, 2.5, "a\"b", 'c\'d', true, null, "\u{E9}", {"k": -1}]}"#)?.tree)
        let elements = tree.listElements
        try #require(elements.count == 8)
        let scalars: [ExpressionNode.Kind] = [
            .literal(.int(1)), .literal(.double(2.5)), .literal(.string("a\"b")), .literal(.string("c'd")),
            .literal(.bool(true)), .literal(.null), .literal(.string("é"))
        ]
        #expect(elements.prefix(7).map(\.kind) == scalars)
        guard case .dictionary(let keys, let values) = elements[7].kind else {
            Issue.record("not a dictionary: \(elements[7])")
            return
        }
        #expect(keys == ["k"])
        #expect(values.map(\.kind) == [.literal(.int(-1))])
    }

    @Test func braceInsideTextDoesNotEndTheExpression() throws {
        let expression = try #require(try parse(#"${"}" + x}"#))
        #expect(expression.description == #"${"}" + x}"#)
    }

    @Test func syntaxErrorsAreLocatedInsideTheExpression() {
        #expect(errors("${a +}") == ["7:15: invalid expression '${a +}': expected a value"])
        #expect(errors("${(a + 1}") == ["7:18: invalid expression '${(a + 1}': expected ')'"])
        #expect(errors("${a ? b}") == ["7:17: invalid expression '${a ? b}': expected ':' after the value when the condition holds"])
        #expect(errors(#"${"abc}"#) == [#"7:12: invalid expression '${"abc}': unterminated text: " has no closing ""#])
        #expect(errors("${a # b}") == ["7:14: invalid expression '${a # b}': unexpected '#'"])
        #expect(errors("${f(1,)}") == ["7:16: invalid expression '${f(1,)}': unexpected ')'"])
        #expect(errors("${a.b()}") == ["7:15: invalid expression '${a.b()}': only a function name can be called"])
        #expect(errors("${é + ☃}") == ["7:16: invalid expression '${é + ☃}': unexpected '☃'"])
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = "${" + String(repeating: "(", count: 500) + "1" + String(repeating: ")", count: 500) + "}"
        #expect(errors(deep).first?.contains("nested too deeply") == true)
        let bangs = "${" + String(repeating: "!", count: 500) + "true}"
        #expect(errors(bangs).first?.contains("nested too deeply") == true)
    }
}

extension ExpressionParserTests {
    @Test func everyConstructNestsUpToTheLimitAndOneLevelMoreIsAnError() {
        let limit = ExpressionLimits.maximumDepth
        for construct in ExpressionFuzzTests.deepConstructs {
            #expect(errors("${" + construct.levels(limit) + "}") == [], "\(construct.name)")
            let deeper = errors("${" + construct.levels(limit + 1) + "}")
            #expect(
                deeper.count == 1 && deeper[0].hasSuffix(": the expression is nested too deeply: more than \(limit) levels"),
                "\(construct.name): \(deeper)")
        }
    }

    @Test func aLongChainStopsAtTheOperatorPastTheLimitWithHowToFixIt() throws {
        // 4,000 terms once crashed the parser; the 64th '+' is past the limit.
        let chain = "${" + Array(repeating: "1", count: 4_000).joined(separator: "+") + "}"
        do {
            _ = try parse(chain)
            Issue.record("parsed a chain of 4,000 terms")
        } catch {
            let diagnostic = try #require(error.diagnostics.first)
            #expect(diagnostic.location.line == 7)
            #expect(diagnostic.location.column == 10 + 2 + 64 * 2 - 1)
            #expect(diagnostic.message.hasPrefix("invalid expression '${1+1+1+"))
            #expect(diagnostic.message.count < 200, "the message quotes the start of a long expression, not all of it")
            #expect(diagnostic.help == "split it into 'set:' steps that each compute a part, and combine their variables")
        }
    }

    @Test func anExpressionLongerThan64KiBIsAnErrorAtItsStart() {
        let limit = ExpressionLimits.maximumLength
        // `${"`, `"}` take 5 bytes, and each "é" 2.
        let text = String(repeating: "é", count: (limit - 6) / 2)
        let atTheLimit = "${\"" + text + "x\"}"
        #expect(atTheLimit.utf8.count == limit)
        #expect(errors(atTheLimit) == [])
        #expect(errors("ok ${a} then ${\"" + text + "xy\"}") == ["7:23: the expression is too long: \(limit + 1) bytes, more than \(limit) (64 KiB)"])
        let list = "${[" + Array(repeating: "1", count: limit / 2).joined(separator: ",") + "]}"
        #expect(errors(list).first?.hasPrefix("7:10: the expression is too long") == true)
    }
}

extension ExpressionNode {
    var listElements: [ExpressionNode] {
        if case .list(let elements) = kind { return elements }
        return []
    }
}
