import Testing

@testable import WorkflowKit

/// Expressions inside quoted, flow and block scalars are located at the column of their `${`
/// in the file, and literals keep their text, style and YAML type.
@Suite("Scalar locations and literals")
struct ScalarLocationTests {
    func firstShownValue(_ yaml: String) throws -> ValueNode {
        let workflow = try WorkflowLoader.load(text: yaml, fileName: "s.yaml")
        guard case .show(let show) = workflow.steps.first?.kind else {
            throw DiagnosticError([])
        }
        return show.value
    }

    func expressionLocations(_ value: ValueNode) -> [String] {
        switch value {
        case .expression(let expression):
            return ["\(expression.location.line):\(expression.location.column)"]
        case .template(let template):
            return template.segments.compactMap { segment in
                guard case .expression(let expression) = segment else { return nil }
                return "\(expression.location.line):\(expression.location.column)"
            }
        case .list(let elements, _):
            return elements.flatMap(expressionLocations)
        case .mapping(let entries, _):
            return entries.flatMap { expressionLocations($0.value) }
        case .literal:
            return []
        }
    }

    @Test(
        arguments: [
            ("plain", "steps:\n  - show: Hello ${name} and ${b.c}\n", ["2:17", "2:29"]),
            ("double quoted", "steps:\n  - show: \"Hello ${name}\"\n", ["2:18"]),
            ("double quoted with escapes", "steps:\n  - show: \"\\u00e9\\t\\\"${x}\\x41${y}\"\n", ["2:22", "2:30"]),
            ("single quoted with doubled quote", "steps:\n  - show: 'it''s ${x} and ''${y}'''\n", ["2:18", "2:29"]),
            ("flow mapping", "steps:\n  - show: { book: ${b}, list: [ ${c[0]}, \"${d}\" ] }\n", ["2:19", "2:33", "2:43"]),
            ("literal block", "steps:\n  - show: |\n      first ${a}\n        indented ${b}\n", ["3:13", "4:18"]),
            ("folded block", "steps:\n  - show: >-\n      folded ${a}\n      text ${b}\n", ["3:14", "4:12"]),
            ("multi-line plain", "steps:\n  - show: one ${a}\n      two ${b}\n", ["2:15", "3:11"]),
            ("multi-line double quoted", "steps:\n  - show: \"one ${a}\n      two \\\n      ${b}\"\n", ["2:16", "4:7"]),
            ("anchored and tagged", "steps:\n  - show: &anchor !!str x ${a}\n", ["2:27"]),
            ("after a tab", "steps:\n  - show:\t\"\t${a}\"\n", ["2:13"]),
            ("non-ASCII text before", "steps:\n  - show: \"été ☀️ ${a}\"\n", ["2:19"]),
            // YAML's escaped quotes inside a quoted scalar of a flow mapping are the expression's
            // quotes, and the mapping's `}` after it still closes the mapping.
            ("flow mapping, escaped quotes", "steps:\n  - show: { s: \"${upper(\\\"x\\\")}\", t: ${t} }\n", ["2:17", "2:38"]),
            ("flow mapping, escaped brace", "steps:\n  - show: { s: \"${join(l, \\\"}\\\")}\", t: '${b + ''}''}' }\n", ["2:17", "2:41"])
        ] as [(String, String, [String])])
    func expressionColumns(_ name: String, _ yaml: String, _ expected: [String]) throws {
        let found = expressionLocations(try firstShownValue(yaml))
        #expect(found == expected, "\(name): \(found)")
    }

    @Test("A quoted scalar in a flow mapping keeps its expression's quotes, whatever YAML escapes in it")
    func quotedScalarsInAFlowMapping() throws {
        let yaml = #"""
            steps:
              - show: { list: [a, b], separator: "${upper(\"x\")}", other: '${"}" + ''{''}' }
            """#
        guard case .mapping(let entries, _) = try firstShownValue(yaml) else {
            Issue.record("expected a mapping")
            return
        }
        let sources = entries.map { entry -> String in
            if case .expression(let expression) = entry.value { return expression.description }
            return "\(entry.value)"
        }
        #expect(entries.map(\.name.value) == ["list", "separator", "other"])
        #expect(Array(sources.dropFirst()) == [#"${upper("x")}"#, #"${"}" + '{'}"#])
        let line = Array(#"with: { separator: "${upper(\"x\")}" } # "not a scalar"#.unicodeScalars)
        #expect(QuotedScalars.ranges(in: line, line: 0..<line.count) == [19..<36])
    }

    @Test func literalsKeepTextStyleAndTag() throws {
        let yaml = """
            steps:
              - show: [ 42, 3.5, true, ~, 2024-05-01, "42", 'x', yes, 0x1F, text, null, FALSE, .inf, !!str 7, "" ]
            """
        guard case .list(let elements, _) = try firstShownValue(yaml) else {
            Issue.record("expected a list")
            return
        }
        let literals = elements.compactMap(\.literal)
        #expect(literals.count == elements.count)
        #expect(
            literals.map(\.rawText) == ["42", "3.5", "true", "~", "2024-05-01", "42", "x", "yes", "0x1F", "text", "null", "FALSE", ".inf", "7", ""])
        #expect(
            literals.map(\.tag) == [
                .int, .float, .bool, .null, .timestamp, .string, .string, .string, .int, .string, .null, .bool, .float, .string, .string
            ])
        #expect(
            literals.map(\.style) == [
                .plain, .plain, .plain, .plain, .plain, .doubleQuoted, .singleQuoted, .plain, .plain, .plain, .plain, .plain, .plain, .plain,
                .doubleQuoted
            ])
        #expect(literals.map(\.isQuoted) == [false, false, false, false, false, true, true, false, false, false, false, false, false, false, true])
        #expect(literals[5].location == Location(file: "s.yaml", line: 2, column: 43, length: 4))
    }

    @Test func escapedLiteralKeepsRawText() throws {
        let literal = try #require(try firstShownValue("steps:\n  - show: costs $${price}\n").literal)
        #expect(literal.text == "costs ${price}")
        #expect(literal.rawText == "costs $${price}")
        #expect(literal.tag == .string)
    }

    @Test func blockScalarLiteral() throws {
        let literal = try #require(try firstShownValue("steps:\n  - show: |\n      line one\n      line two\n").literal)
        #expect(literal.text == "line one\nline two\n")
        #expect(literal.style == .literal)
        #expect(literal.location.line == 2 && literal.location.column == 11)
    }

    @Test func singleExpressionKeepsItsTypeWhetherQuotedOrNot() throws {
        #expect(try firstShownValue("steps:\n  - show: ${list}\n").expression != nil)
        #expect(try firstShownValue("steps:\n  - show: \"${list}\"\n").expression?.location.column == 12)
        #expect(try firstShownValue("steps:\n  - show: \" ${list}\"\n").template != nil)
    }

    @Test func keysAreLocatedWithTheirLength() throws {
        let workflow = try WorkflowLoader.load(text: "steps:\n  - perform: A.B\n    with: { \"quoted key\": 1, plain: 2 }\n", fileName: "s.yaml")
        guard case .perform(let perform) = workflow.steps.first?.kind else {
            Issue.record("expected a perform step")
            return
        }
        #expect(
            perform.parameters.map(\.name) == [
                Located("quoted key", at: Location(file: "s.yaml", line: 3, column: 13, length: 12)),
                Located("plain", at: Location(file: "s.yaml", line: 3, column: 30, length: 5))
            ])
    }
}
