import IntentKit
import Testing

@testable import WorkflowKit

/// The validator types expressions and locates every mistake inside the `${…}`.
@Suite("Expression type checking")
struct ExpressionTypeCheckTests {
    /// The diagnostics for `output: <expression>` after `set: count` and `set: names`.
    func problems(_ expression: String) throws -> [String] {
        let workflow = try WorkflowLoader.load(
            text: "steps:\n  - set: count\n    to: 3\n  - set: names\n    to: [a]\noutput: '\(expression)'\n", fileName: "t.yaml")
        let diagnostics = WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow)
        return diagnostics.map { summary($0) + ($0.help.map { " | " + $0 } ?? "") }
    }

    func check(_ expression: String, _ expected: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let found = try problems(expression)
        #expect(found == expected, sourceLocation: sourceLocation)
    }

    @Test func unknownFunctionsAndVariablesSuggestNames() throws {
        try check("${uper(count)}", ["6:12: unknown function 'uper' | did you mean 'upper'?"])
        try check("${cont + 1}", ["6:12: 'cont' is not defined here | did you mean 'count'?"])
    }

    @Test func argumentCountsAndTypesAreChecked() throws {
        try check("${upper(count, 2)}", ["6:12: 'upper' takes 1 argument, got 2 | write upper(text)"])
        try check("${dateAdd(now, 1)}", ["6:12: 'dateAdd' takes 3 arguments, got 2 | write dateAdd(date, number, text)"])
        try check("${sum(count)}", ["6:16: argument 1 of 'sum' must be list, not Int | write sum(list)"])
    }

    @Test func operatorsNeedTheRightKindsOfValue() throws {
        try check("${names * 2}", ["6:18: '*' needs numbers, not [String]"])
        try check("${count && true}", ["6:12: '&&' needs true or false, not Int | compare it, as in 'count > 0' or 'name != \"\"'"])
        try check("${now.yaer}", ["6:16: Date has no property 'yaer' | did you mean 'year'?"])
    }

    @Test func wellTypedExpressionsHaveNoProblems() throws {
        try check(#"${count > 2 ? upper(names[0]) : "none"}"#, [])
        try check("${now.year + count}", [])
    }
}

extension ExpressionTypeCheckTests {
    @Test func aConditionMustBeTrueOrFalse() throws {
        let workflow = try WorkflowLoader.load(
            text: "steps:\n  - set: count\n    to: 3\n  - if: ${count}\n    then: [ { show: x } ]\n  - if: ${count > 1}\n    then: [ { show: y } ]\n",
            fileName: "t.yaml")
        let found = WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow).map(summary)
        #expect(found == ["4:11: a condition needs true or false, not Int"])
        #expect(
            diagnostics(loading: "steps:\n  - if: count is ${count}\n    then: [ { show: x } ]\n").map(summary) == [
                "2:9: a condition written as text must be exactly one expression, such as '${count > 3}'"
            ])
    }
}

extension ExpressionTypeCheckTests {
    @Test func literalDatePatternsUnitsAndTimeZonesAreCheckedBeforeTheRun() throws {
        try check(
            #"${formatDate(now(), "yyyy-MM-ddTHH:mm")}"#,
            [
                "6:30: invalid date pattern: 'T' is not a date pattern letter; write literal text between single quotes, as in yyyy-MM-dd'T'HH:mm | write formatDate(date, text, text?)"
            ])
        try check(
            #"${parseDate("1/2", "d/MTyy")}"#,
            [
                "6:29: invalid date pattern: 'T' is not a date pattern letter; write literal text between single quotes, as in yyyy-MM-dd'T'HH:mm | write parseDate(text, text?)"
            ])
        try check(
            #"${dateAdd(now(), 1, "fortnight")}"#,
            [
                "6:30: invalid 'unit': 'fortnight' is not a unit; units are second, minute, hour, day, week, month, year | write dateAdd(date, number, text)"
            ])
        try check(#"${dateDiff(now(), now(), "Days")}"#, [])
        try check(
            #"${formatDate(now(), "yyyy", "Mars/Olympus")}"#,
            [
                "6:38: invalid 'timeZone': 'Mars/Olympus' is not a time zone; write an IANA name such as Europe/Paris, UTC, or an offset such as +02:00 | write formatDate(date, text, text?)"
            ])
        try check(#"${formatDate(now(), "EEEE d MMMM yyyy, HH:mm", "Europe/Paris")}"#, [])
    }
}
