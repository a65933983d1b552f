import IntentKit
import Testing

@testable import WorkflowKit

@Suite("Diagnostic rendering")
struct DiagnosticRenderingTests {
    static let source = """
        name: Add a book
        steps:
          - perform: Library.AddBook
            with:
              title: Where the Crawdads Sing
              athorName: Delia Owens
        """

    @Test func rendersHeaderExcerptCaretAndHelp() {
        let diagnostic = Diagnostic(
            severity: .error,
            message: "unknown parameter 'athorName' for intent 'Library.AddBook'",
            location: Location(file: "Workflows/add.yaml", line: 6, column: 7, length: 9),
            help: "did you mean 'authorName'?"
        )
        let rendered = DiagnosticRenderer(sources: ["Workflows/add.yaml": Self.source]).render(diagnostic)
        #expect(
            rendered == """
                Workflows/add.yaml:6:7: error: unknown parameter 'athorName' for intent 'Library.AddBook'
                    6 |       athorName: Delia Owens
                      |       ^~~~~~~~~
                help: did you mean 'authorName'?
                """)
    }

    @Test func gutterIsRightAlignedForLongerLineNumbers() {
        let source = String(repeating: "# filler\n", count: 11_999) + "steps: 3\n"
        let diagnostic = Diagnostic.error(
            "expected a list of steps for 'steps', got '3'",
            at: Location(file: "big.yaml", line: 12_000, column: 8, length: 1))
        #expect(
            DiagnosticRenderer(sources: ["big.yaml": source]).render(diagnostic) == """
                big.yaml:12000:8: error: expected a list of steps for 'steps', got '3'
                 12000 | steps: 3
                       |        ^
                """)
    }

    @Test func caretWithoutLengthAndWithoutSource() {
        let diagnostic = Diagnostic(
            severity: .warning, message: "step is never reached",
            location: Location(file: "a.yaml", line: 2, column: 3))
        #expect(
            DiagnosticRenderer(sources: ["a.yaml": "x: 1\n- y\n"]).render(diagnostic) == """
                a.yaml:2:3: warning: step is never reached
                    2 | - y
                      |   ^
                """)
        #expect(DiagnosticRenderer().render(diagnostic) == "a.yaml:2:3: warning: step is never reached")
    }

    @Test func tabsBeforeTheColumnAreKept() {
        let diagnostic = Diagnostic.error("tab", at: Location(file: "t.yaml", line: 1, column: 3, length: 2))
        #expect(
            DiagnosticRenderer(sources: ["t.yaml": "\t\tab: 1"]).render(diagnostic) == """
                t.yaml:1:3: error: tab
                    1 | \t\tab: 1
                      | \t\t^~
                """)
    }

    @Test func lengthIsClippedToTheLineAndColumnPastTheEndIsShown() {
        let renderer = DiagnosticRenderer(sources: ["e.yaml": "steps: [\n"])
        let diagnostic = Diagnostic.error("unexpected end", at: Location(file: "e.yaml", line: 1, column: 9, length: 40))
        #expect(
            renderer.render(diagnostic) == """
                e.yaml:1:9: error: unexpected end
                    1 | steps: [
                      |         ^
                """)
    }

    @Test func longLinesAreShownAroundTheColumn() {
        let line = String(repeating: "a", count: 300) + "XYZ" + String(repeating: "b", count: 300)
        let diagnostic = Diagnostic.error("here", at: Location(file: "l.yaml", line: 1, column: 301, length: 3))
        let rendered = DiagnosticRenderer(sources: ["l.yaml": line]).render(diagnostic)
        let lines = rendered.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 3)
        let excerpt = lines[1].dropFirst(8)
        let marker = lines[2].dropFirst(8)
        #expect(excerpt.hasPrefix("…") && excerpt.hasSuffix("…"))
        #expect(excerpt.count == 162)
        let caretOffset = marker.distance(from: marker.startIndex, to: marker.firstIndex(of: "^") ?? marker.endIndex)
        #expect(Array(excerpt)[caretOffset..<caretOffset + 3] == ["X", "Y", "Z"])
        #expect(marker.hasSuffix("^~~"))
    }

    @Test func severalDiagnosticsAreSeparatedAndSorted() {
        let source = "a: 1\nb: 2\n"
        let error = DiagnosticError(
            [
                .error("second", at: Location(file: "f.yaml", line: 2, column: 1)),
                .error("first", at: Location(file: "f.yaml", line: 1, column: 1))
            ], sources: ["f.yaml": source])
        #expect(error.diagnostics.map(\.message) == ["first", "second"])
        #expect(
            error.rendered() == """
                f.yaml:1:1: error: first
                    1 | a: 1
                      | ^

                f.yaml:2:1: error: second
                    2 | b: 2
                      | ^
                """)
        #expect(error.description == error.rendered())
    }

    @Test func oneLineDescription() {
        let diagnostic = Diagnostic.error("missing required key 'steps'", at: Location(file: "w.yaml", line: 1, column: 1))
        #expect(diagnostic.description == "w.yaml:1:1: error: missing required key 'steps'")
    }
}

@Suite("Name suggestions")
struct NameSuggestionTests {
    @Test(
        arguments: [
            ("athorName", ["title", "authorName", "datePublished"], "authorName"),
            ("timezone", ["schedule", "timeZone"], "timeZone"),
            ("TITLE", ["title"], "title"),
            ("stpes", ["name", "steps"], "steps"),
            ("perfrom", ["perform", "find"], "perform"),
            ("greaterThen", ["greaterThan", "lessThan"], "greaterThan"),
            ("limt", ["limit", "sortBy"], "limit"),
            ("desc", ["ascending", "descending"], "descending"),
            ("fnd", ["find", "filter"], "find")
        ] as [(String, [String], String)])
    func suggestsTheClosestCandidate(_ name: String, _ candidates: [String], _ expected: String) {
        #expect(NameSuggestion.nearest(to: name, among: candidates) == expected)
    }

    @Test func suggestsNothingWhenNothingIsClose() {
        #expect(NameSuggestion.nearest(to: "zzz", among: ["title", "author"]) == nil)
        #expect(NameSuggestion.nearest(to: "colour", among: ["steps", "name"]) == nil)
        #expect(NameSuggestion.nearest(to: "", among: ["a"]) == nil)
        #expect(NameSuggestion.nearest(to: "x", among: []) == nil)
        #expect(NameSuggestion.nearest(to: "title", among: ["title", "titles"]) == nil)
    }

    @Test func tiesGoToTheEarlierCandidate() {
        #expect(NameSuggestion.nearest(to: "cat", among: ["bat", "hat"]) == "bat")
    }

    @Test func editDistanceCountsSwapsAsOne() {
        #expect(NameSuggestion.editDistance(Array("abcd"), Array("acbd")) == 1)
        #expect(NameSuggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(NameSuggestion.editDistance(Array(""), Array("abc")) == 3)
    }
}
