import Testing

@testable import WorkflowKit

@Suite("Caret lines")
struct CaretLineTests {
    @Test func marksAColumnRangeOfPlainText() {
        #expect(CaretLine.draw(under: "shortcuts search --index nope", columns: 25..<29) == String(repeating: " ", count: 25) + "^~~~")
        #expect(CaretLine.draw(under: "keywords ==", columns: 0..<1) == "^")
    }

    @Test func anEmptyRangeOrARangePastTheEndStillGetsItsCaret() {
        #expect(CaretLine.draw(under: "abc", columns: 1..<1) == " ^")
        #expect(CaretLine.draw(under: "keywords ==", columns: 11..<12) == String(repeating: " ", count: 11) + "^")
        #expect(CaretLine.draw(under: "ab", columns: 4..<6) == "    ^~")
    }

    @Test func wideCharactersTakeTwoCellsAndTabsAreRepeated() {
        #expect(CaretLine.draw(under: "title == \"ねこ\" )", columns: 14..<15) == String(repeating: " ", count: 16) + "^")
        #expect(CaretLine.draw(under: "ねこ x", columns: 0..<2) == "^~~~")
        #expect(CaretLine.draw(under: "\tname: x", columns: 7..<8) == "\t      ^")
        #expect(CaretLine.draw(leading: "cafe\u{301} ", marked: "x") == "     ^", "a combining accent takes no cell")
    }

    @Test func theDiagnosticRendererLinesUpAfterJapaneseText() {
        let diagnostic = Diagnostic(
            severity: .error, message: "unknown variable 'nme'",
            location: Location(file: "w.yaml", line: 1, column: 18, length: 3))
        let rendered = DiagnosticRenderer(sources: ["w.yaml": "show: ねこと ねずみ {{ nme }}"]).render(diagnostic)
        #expect(
            rendered == """
                w.yaml:1:18: error: unknown variable 'nme'
                    1 | show: ねこと ねずみ {{ nme }}
                      | \(String(repeating: " ", count: 23))^~~
                """)
    }
}
