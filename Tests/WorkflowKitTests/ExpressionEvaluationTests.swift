import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// Expressions with operators, literals and functions, validated and run.
@Suite("Expression evaluation")
struct ExpressionEvaluationTests {
    func output(_ text: String) async throws -> IntentValue {
        let workflow = try WorkflowLoader.load(text: text, fileName: "e.yaml")
        let problems = WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow).map(summary)
        #expect(problems.isEmpty)
        return try await WorkflowRunner(catalog: IntentCatalog(apps: [])).run(workflow).output
    }

    /// The value of one expression, with `a` = 1, `b` = 2, `name` = "Émile" and `books` = [3, 1, 2].
    func value(_ expression: String) async throws -> IntentValue {
        try await output(
            """
            steps:
              - set: a
                to: 1
              - set: b
                to: 2
              - set: name
                to: Émile
              - set: books
                to: [3, 1, 2]
            output: '\(expression)'
            """)
    }

    /// The rendered error a run stops with.
    func runError(_ text: String) async throws -> String {
        let workflow = try WorkflowLoader.load(text: text, fileName: "e.yaml")
        do {
            _ = try await WorkflowRunner(catalog: IntentCatalog(apps: [])).run(workflow)
            return "no error"
        } catch let error as WorkflowRunError {
            return summary(error.diagnostic)
        }
    }

    @Test func arithmeticKeepsNumbersWholeAndFollowsPrecedence() async throws {
        #expect(try await value("${a + b * 2}") == .int(5))
        #expect(try await value("${(a + b) * 2}") == .int(6))
        #expect(try await value("${7 / 2}") == .double(3.5))
        #expect(try await value("${6 / b}") == .int(3))
        #expect(try await value("${7 % 4 - -1}") == .int(4))
        #expect(try await value("${1.5 + a}") == .double(2.5))
    }

    @Test func addingInALoopGivesANumberNotText() async throws {
        let total = try await output(
            """
            steps:
              - set: total
                to: 0
              - repeat: { count: 3 }
                steps:
                  - set: total
                    to: ${total + index}
            output: ${total}
            """)
        #expect(total == .int(6))
    }

    @Test func plusJoinsTextAndLists() async throws {
        #expect(try await value(#"${"n=" + a}"#) == .string("n=1"))
        #expect(try await value("${books + [4]}") == .list([.int(3), .int(1), .int(2), .int(4)]))
        #expect(try await value("${a + b} and ${name}") == .string("3 and Émile"))
    }

    @Test func comparisonsIgnoreCaseAndDiacritics() async throws {
        #expect(try await value(#"${name == "emile"}"#) == .bool(true))
        #expect(try await value(#"${name != "Emile" || a >= 1}"#) == .bool(true))
        #expect(try await value("${a < b && !(b <= a)}") == .bool(true))
    }

    @Test func conditionalsDefaultsAndNullSafety() async throws {
        #expect(try await value(#"${a > 1 ? "big" : "small"}"#) == .string("small"))
        #expect(try await value("${null ?? a}") == .int(1))
        #expect(try await value(#"${{"x": null}.x?.y ?? "none"}"#) == .string("none"))
        #expect(try await value("${books[-1]}") == .int(2))
        #expect(try await value("${books[a]}") == .int(1))
        #expect(try await value(#"${{"k": [1, 2]}["k"].count}"#) == .int(2))
    }

    @Test func functionsCallTheValueFunctions() async throws {
        #expect(try await value("${upper(name)}") == .string("ÉMILE"))
        #expect(try await value(#"${join(sort(books), "-")}"#) == .string("1-2-3"))
        #expect(try await value("${sum(books) + max(books) + min(4, a)}") == .int(10))
        #expect(try await value("${average(books)}") == .double(2))
        #expect(try await value(#"${split("a,b", ",")[1]}"#) == .string("b"))
        #expect(try await value(#"${replace(trim("  hi  "), "h", "H")}"#) == .string("Hi"))
        #expect(try await value(#"${format("{0} has {1}", name, count(books))}"#) == .string("Émile has 3"))
        #expect(try await value("${round(2.5) + floor(1.9) + ceil(0.1) + abs(-2)}") == .int(7))
        #expect(try await value("${first(unique([2, 2, 5])) + last(slice(books, 1))}") == .int(4))
        #expect(try await value(#"${contains(books, 3) && startsWith(name, "e") && endsWith(name, "LE")}"#) == .bool(true))
        #expect(try await value(#"${toJSON(fromJSON("[1,2]"))}"#) == .string("[1,2]"))
        #expect(try await value(#"${length("héllo") + length(books)}"#) == .int(8))
    }

    @Test func datesHaveFunctionsAndParts() async throws {
        let year = Calendar.current.component(.year, from: Date())
        #expect(try await value("${now.year}") == .int(year))
        #expect(try await value("${now().year == today().year}") == .bool(true))
        #expect(
            try await value(#"${formatDate(dateAdd(parseDate("2024-01-31", "yyyy-MM-dd"), 1, "day"), "yyyy-MM-dd")}"#)
                == .string("2024-02-01"))
        #expect(try await value(#"${dateDiff(parseDate("2024-01-01", "yyyy-MM-dd"), parseDate("2024-03-01", "yyyy-MM-dd"), "days")}"#) == .int(60))
        #expect(try await value(#"${parseDate("2024-05-06", "yyyy-MM-dd").month}"#) == .int(5))
    }

    @Test func conditionsAcceptOneBooleanExpression() async throws {
        let result = try await output(
            """
            steps:
              - set: books
                to: [a, b, c, d]
              - set: shelf
                to: Read
              - if: ${count(books) > 3 && shelf == "read"}
                then:
                  - set: verdict
                    to: many
                else:
                  - set: verdict
                    to: few
            output: ${verdict}
            """)
        #expect(result == .string("many"))
    }

    @Test func runTimeFailuresPointInsideTheExpression() async throws {
        #expect(try await runError("steps:\n  - set: z\n    to: 0\noutput: ${1 / z}\n") == "4:13: division by zero")
        let outside = try await runError("steps:\n  - set: l\n    to: [1]\noutput: ${l[a ?? 3]}\n")
        #expect(outside == "4:15: index 3 is outside the list of 1 item")
        #expect(
            try await runError("steps:\n  - set: d\n    to: { k: 1 }\noutput: ${d[\"j\"] + 1}\n")
                == "4:13: the dictionary has no key 'j'")
    }
}

extension ExpressionEvaluationTests {
    @Test func expressionsNeedNoQuotingOnOneLine() async throws {
        let result = try await output(
            """
            steps:
              - set: d
                to: ${ {"a": [1, 2], "b": "}"} }
              - set: shown
                to: { text: ${d.a[1] + 1}, larger: ${max(1, 2)} }
            output: ${d.a[0] > 0 ? d.b + "#" : "no"} # a comment
            """)
        #expect(result == .string("}#"))
    }
}

extension ExpressionEvaluationTests {
    @Test func hugeNumbersGivenAsWholeNumbersDoNotCrash() async throws {
        #expect(try await value("${round(2.5, 1e300)}") == .double(2.5))
        #expect(try await value("${slice(books, -1e300, 1e300)}") == .list([.int(3), .int(1), .int(2)]))
    }
}
