import Foundation
import Testing

@testable import WorkflowKit

/// One kind of mistake, the text that makes it, and the exact diagnostics expected.
struct ErrorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let yaml: String
    /// `line:column: message`, each with its help text or `nil`.
    let expected: [(summary: String, help: String?)]

    init(_ name: String, _ yaml: String, _ expected: (String, String?)...) {
        self.name = name
        self.yaml = yaml
        self.expected = expected.map { (summary: $0.0, help: $0.1) }
    }

    var testDescription: String { name }
}

@Suite("Loading errors")
struct LoadingErrorTests {
    static let cases: [ErrorCase] = [
        ErrorCase(
            "YAML syntax error", "steps:\n  - show: [1, 2\n",
            ("2:16: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 11)", nil)),
        ErrorCase(
            "YAML mapping value in plain scalar", "steps:\n  - show: a: b\n",
            ("2:12: invalid YAML: mapping values are not allowed in this context", nil)),
        ErrorCase(
            "tab indentation", "steps:\n\t- show: x\n",
            (
                "2:1: invalid YAML: found character that cannot start any token (while scanning for the next token at line 2, column 1)",
                "YAML does not allow tabs for indentation; use spaces"
            )),
        ErrorCase(
            "unterminated quoted scalar at end of file", "steps:\n  - show: \"abc\n",
            ("2:15: invalid YAML: found unexpected end of stream (while scanning a quoted scalar at line 2, column 11)", nil)),
        ErrorCase(
            "control character", "steps:\n  - show: \u{1}\n",
            ("2:11: invalid YAML: control characters are not allowed", nil)),
        ErrorCase(
            "second document", "steps: []\n---\nsteps: []\n",
            ("2:1: a workflow file must contain a single YAML document", "remove the '---' that starts a second document")),
        ErrorCase(
            "empty file", "",
            ("1:1: the workflow file is empty", "a workflow needs at least a 'steps:' list")),
        ErrorCase(
            "top level is a list", "- show: x\n",
            ("1:1: expected a mapping with 'name' and 'steps' at the top level, got a list of 1 value", nil)),
        ErrorCase(
            "missing steps", "name: Nothing to do\n",
            ("1:1: missing required key 'steps'", "add a 'steps:' list")),
        ErrorCase(
            "unknown top-level key", "name: x\nstpes: []\nsteps: []\n",
            ("2:1: unknown top-level key 'stpes'", "did you mean 'steps'?")),
        ErrorCase(
            "unknown step key", "steps:\n  - find: Library.BookEntity\n    limt: 3\n",
            ("3:5: unknown key 'limt' in 'find' step", "did you mean 'limit'?")),
        ErrorCase(
            "key of another kind", "steps:\n  - find: Library.BookEntity\n    openWhenRun: true\n",
            ("3:5: 'openWhenRun' is not allowed in a 'find' step", "'openWhenRun' belongs to 'perform' steps")),
        ErrorCase(
            "misspelled kind", "steps:\n  - prform: Library.AddBook\n",
            ("2:5: unknown key 'prform' in step", "did you mean 'perform'?")),
        ErrorCase(
            "step without kind", "steps:\n  - id: lonely\n",
            (
                "2:5: step has no kind: expected one of 'perform', 'find', 'filter', 'show', 'set', 'append', 'if', 'repeat', 'menu', 'ask', 'run', 'wait', 'stop', 'fail', 'comment', 'search', 'break', 'continue', 'try' or 'parallel'",
                nil
            )),
        ErrorCase(
            "step with two kinds", "steps:\n  - perform: Library.AddBook\n    find: Library.BookEntity\n",
            ("3:5: step has more than one kind: 'perform' and 'find'", "split it into one step for each kind")),
        ErrorCase(
            "step written without colon", "steps:\n  - stop\n",
            ("2:5: expected a step (a mapping such as 'show: Hello'), got 'stop'", "write 'stop:' with a colon and its value")),
        ErrorCase(
            "mapping expected, got list", "steps:\n  - perform: Library.AddBook\n    with: [1, 2]\n",
            ("3:11: expected a mapping for 'with', got a list of 2 values", nil)),
        ErrorCase(
            "list of steps expected, got mapping", "steps:\n  show: x\n",
            ("2:3: expected a list of steps for 'steps', got a mapping", "start each step with '- ', such as '- show: Hello'")),
        ErrorCase(
            "text expected, got mapping", "steps:\n  - run: { path: other.yaml }\n",
            ("2:10: expected text for 'run', got a mapping", nil)),
        ErrorCase(
            "missing required key of a step", "steps:\n  - set: total\n",
            ("2:5: 'set' step is missing required key 'to'", nil)),
        ErrorCase(
            "missing then", "steps:\n  - if: { value: 1, equalTo: 1 }\n",
            ("2:5: 'if' step is missing required key 'then'", nil)),
        ErrorCase(
            "misspelled required key is reported once", "steps:\n  - set: total\n    too: 3\n",
            ("3:5: unknown key 'too' in 'set' step", "did you mean 'to'?")),
        ErrorCase(
            "duplicate step id",
            "steps:\n  - id: book\n    show: 1\n  - if: { value: 1, equalTo: 1 }\n    then:\n      - id: book\n        show: 2\n",
            ("6:13: duplicate step id 'book' (first used at line 2)", "give each step a different id")),
        ErrorCase(
            "duplicate key", "steps:\n  - show: 1\n    show: 2\n",
            ("3:5: duplicate key 'show' (first defined at line 2)", nil)),
        ErrorCase(
            "duplicate keys quoted and in flow", "steps:\n  - show: {a: 1, 'a': 2}\nname: x\n\"name\": y\n",
            ("2:18: duplicate key 'a' (first defined at line 2, column 12)", nil),
            ("4:1: duplicate key 'name' (first defined at line 3)", nil)),
        ErrorCase(
            "unterminated expression", "steps:\n  - show: ${input.title\n",
            ("2:11: unterminated expression: '${' has no matching '}'", "write '$${' for a literal '${'")),
        ErrorCase(
            "empty expression", "steps:\n  - show: \"x ${}\"\n",
            ("2:14: empty expression '${}'", "write a variable name inside, like '${previous}'")),
        ErrorCase(
            "bad path", "steps:\n  - show: ${a..b}\n",
            ("2:15: invalid expression '${a..b}': expected a property name after '.'", nil)),
        ErrorCase(
            "bad index", "steps:\n  - show: ${a[]}\n",
            ("2:15: invalid expression '${a[]}': expected a non-negative integer index", nil)),
        ErrorCase(
            "unclosed index in flow mapping", "steps:\n  - show: {x: ${c[0}}\n",
            ("2:20: invalid expression '${c[0}': expected ']'", nil)),
        ErrorCase(
            "unknown comparator", "steps:\n  - find: Library.BookEntity\n    where: { author: { equalTp: x } }\n",
            ("3:24: unknown comparator 'equalTp' for property 'author'", "did you mean 'equalTo'?")),
        ErrorCase(
            "isBetween needs two values", "steps:\n  - find: A.B\n    where: { n: { isBetween: [1] } }\n",
            ("3:30: 'isBetween' expects a list of two values, such as '[1, 10]', got a list of 1 value", nil)),
        ErrorCase(
            "hasValue takes true", "steps:\n  - find: A.B\n    where: { n: { hasValue: false } }\n",
            ("3:29: 'hasValue' takes 'true', got 'false'", "to test the opposite, write 'hasNoValue: true'")),
        ErrorCase(
            "comparator without value in if", "steps:\n  - if: { greaterThan: 1 }\n    then: []\n",
            (
                "2:11: missing 'value' for comparator 'greaterThan'",
                "write what to compare as 'value:', such as '{ value: ${total}, greaterThan: … }'"
            )),
        ErrorCase(
            "empty condition", "steps:\n  - if: {}\n    then: []\n",
            ("2:9: empty condition", "write a condition such as '{ value: ${total}, greaterThan: 0 }'")),
        ErrorCase(
            "unsupported tag", "steps:\n  - show: !foo x\n",
            (
                "2:11: unsupported YAML tag '!foo'",
                "only the standard tags !!str, !!int, !!float, !!bool, !!null and !!timestamp are allowed"
            )),
        ErrorCase(
            "reserved variable name", "steps:\n  - set: input\n    to: 1\n",
            (
                "2:10: 'input' is a reserved name and cannot be used as a variable name",
                "choose another name; 'input', 'previous', 'now', 'index', 'env', 'secrets' are built in"
            )),
        ErrorCase(
            "reserved step id", "steps:\n  - id: secrets\n    show: x\n",
            (
                "2:9: 'secrets' is a reserved name and cannot be used as a step id",
                "choose another name; 'input', 'previous', 'now', 'index', 'env', 'secrets' are built in"
            )),
        ErrorCase(
            "reserved input name", "input:\n  env: String\nsteps: []\n",
            ("2:3: 'env' is a reserved name and cannot be used as an input name", "choose another name; ${env.NAME} reads an environment variable")),
        ErrorCase(
            "invalid step id", "steps:\n  - id: 'my book'\n    show: x\n",
            ("2:9: invalid step id 'my book': use letters, digits and '_', starting with a letter or '_'", nil)),
        ErrorCase(
            "invalid intent name", "steps:\n  - perform: Library..AddBook\n",
            ("2:14: invalid intent name 'Library..AddBook': expected 'App.Name' or 'Name'", nil)),
        ErrorCase(
            "negative limit", "steps:\n  - find: A.B\n    limit: -1\n",
            ("3:12: expected a non-negative integer or an expression for 'limit', got '-1'", nil)),
        ErrorCase(
            "wait without unit", "steps:\n  - wait: 5\n",
            ("2:11: invalid duration '5' for 'wait'", "add a unit, such as '5s'")),
        ErrorCase(
            "boolean expected", "steps:\n  - perform: A.B\n    openWhenRun: yes\n",
            ("3:18: expected true or false for 'openWhenRun', got 'yes'", nil)),
        ErrorCase(
            "repeat with both modes", "steps:\n  - repeat: { count: 2, each: ${x} }\n    steps: []\n",
            ("2:25: 'repeat' takes either 'count' or 'each', not both", nil)),
        ErrorCase(
            "menu without options", "steps:\n  - menu: x\n    options: {}\n",
            ("3:14: a menu needs at least one option", "map each option's title to its steps, such as 'Cancel: []'")),
        ErrorCase(
            "invalid automation value", "automation:\n  schedule: '@daily'\n  overlap: sometimes\n  catchUp: lates\nsteps: []\n",
            ("3:12: invalid value 'sometimes' for 'overlap': expected 'skip', 'queue', 'parallel' or 'replace'", nil),
            ("4:12: invalid value 'lates' for 'catchUp': expected 'none', 'latest' or 'all'", "did you mean 'latest'?")),
        ErrorCase(
            "automation key case", "automation:\n  schedule: '@daily'\n  timezone: Europe/Paris\nsteps: []\n",
            ("3:3: unknown key 'timezone' in 'automation'", "did you mean 'timeZone'?")),
        ErrorCase(
            "retry attempts", "automation:\n  schedule: '@daily'\n  retry: { attempts: 0 }\nsteps: []\n",
            ("3:22: expected an integer of at least 1 for 'attempts', got '0'", nil))
    ]

    @Test(arguments: cases)
    func reportsLocatedError(_ errorCase: ErrorCase) {
        let found = diagnostics(loading: errorCase.yaml)
        #expect(found.map(summary) == errorCase.expected.map(\.summary))
        #expect(found.map(\.help) == errorCase.expected.map(\.help))
        #expect(found.allSatisfy { $0.severity == .error && $0.location.file == "test.yaml" })
    }

    @Test func fiveMistakesAreReportedAtOnce() throws {
        let found = diagnostics(loading: try Fixtures.text("five-mistakes"), fileName: "five-mistakes.yaml")
        #expect(
            found.map(summary) == [
                "2:1: unknown top-level key 'stpes'",
                "7:14: unterminated expression: '${' has no matching '}'",
                "8:9: duplicate step id 'book' (first used at line 4)",
                "11:5: step has more than one kind: 'show' and 'find'",
                "13:5: unknown key 'limt' in 'find' step"
            ])
    }

    @Test func errorsInDifferentStepsAreAllReported() {
        let yaml = """
            steps:
              - show: ${a..b}
              - wait: soon
              - perform: Library.AddBook
                with: []
              - repeat: { count: 3 }
                steps:
                  - set: x
              - stop: ${}
            """
        #expect(
            diagnostics(loading: yaml).map(summary) == [
                "2:15: invalid expression '${a..b}': expected a property name after '.'",
                "3:11: invalid duration 'soon' for 'wait'",
                "5:11: expected a mapping for 'with', got a list of 0 values",
                "8:9: 'set' step is missing required key 'to'",
                "9:11: empty expression '${}'"
            ])
    }

    @Test func diagnosticsCarryLengthsForUnderlining() {
        let found = diagnostics(loading: "steps:\n  - perform: A.B\n    with: { title: x }\n    athorName: y\n")
        #expect(found.first?.location.length == 9)
    }

    @Test func unreadableFileIsALocatedError() {
        let url = URL(fileURLWithPath: "/nonexistent/directory/missing.yaml")
        #expect {
            try WorkflowLoader.load(contentsOf: url)
        } throws: { error in
            guard let error = error as? DiagnosticError, let diagnostic = error.diagnostics.first else { return false }
            return diagnostic.location == Location(file: "/nonexistent/directory/missing.yaml", line: 1, column: 1)
                && diagnostic.message.hasPrefix("cannot read the workflow file")
        }
    }

    @Test func loadsFromFileWithRelativePath() throws {
        let workflow = try WorkflowLoader.load(contentsOf: Fixtures.url("minimal"))
        #expect(workflow.fileName == Fixtures.url("minimal").path)
        let relative = URL(fileURLWithPath: "Fixtures/minimal.yaml", relativeTo: Fixtures.directory.deletingLastPathComponent())
        #expect(try WorkflowLoader.load(contentsOf: relative).fileName == "Fixtures/minimal.yaml")
    }

    @Test func errorRendersWithSource() {
        do {
            _ = try WorkflowLoader.load(text: "steps:\n  - find: A.B\n    limt: 3\n", fileName: "Workflows/find.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(
                error.rendered() == """
                    Workflows/find.yaml:3:5: error: unknown key 'limt' in 'find' step
                        3 |     limt: 3
                          |     ^~~~
                    help: did you mean 'limit'?
                    """)
            #expect(error.sources["Workflows/find.yaml"] == "steps:\n  - find: A.B\n    limt: 3\n")
        }
    }
}
