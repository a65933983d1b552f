import Foundation
import Testing

@testable import ShortcutsCLI

/// The server's check of a message's JSON, against RFC 8259 and the test's own grammar.
struct JSONSyntaxTests {
    static let valid = [
        "{}", "[]", "0", "-0", "1.5e-3", "1E+2", "-12.0", "true", "null", #""\u00e9\ud83d\ude00\n\"\\\/""#, #"{"a":[1,{"b":null}]}"#,
        " \t\r\n[ 1 , 2 ]\n", "\"é😀\"", "1e400", #""\ud800""#
    ]
    static let invalid = [
        "", " ", "[1,]", #"{"a":1,}"#, "01", "1.", "-", ".5", "1e", "+1", "NaN", "tru", "nul", "[1 2]", #"{"a" 1}"#, #"{1:2}"#,
        "\"\u{01}\"", #""\x""#, #""\u12g4""#, "\"abc", "[]]", "{}x", "\u{FEFF}[]", "'a'", "[", #"{"a":}"#
    ]

    @Test(arguments: valid)
    func validTextHasNoProblem(_ text: String) {
        #expect(JSONSyntax.problem(in: Data(text.utf8)) == nil)
        #expect(JSONGrammar.parse(Array(text.utf8)) != nil)
    }

    @Test(arguments: invalid)
    func invalidTextHasAProblem(_ text: String) {
        #expect(JSONSyntax.problem(in: Data(text.utf8)) != nil)
        #expect(JSONGrammar.parse(Array(text.utf8)) == nil)
    }

    @Test func bytesThatAreNotUTF8AreAProblem() {
        for bytes: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]] {
            let text = [0x22] + bytes + [0x22]
            #expect(JSONSyntax.problem(in: Data(text))?.reason == "the bytes are not UTF-8")
            #expect(JSONGrammar.parse(text) == nil)
        }
    }

    @Test func theProblemIsLocated() {
        #expect(JSONSyntax.problem(in: Data(#"{"id":1,}"#.utf8)) == JSONSyntax.Problem(offset: 8, reason: "expected a member name, found '}'"))
        #expect(JSONSyntax.problem(in: Data(#"{"id":1"#.utf8))?.description == "byte 7: the text ends before its value does")
    }

    @Test func nestingStopsAt256Levels() {
        func nested(_ depth: Int) -> Data { Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8) }
        #expect(JSONSyntax.problem(in: nested(256)) == nil)
        #expect(JSONSyntax.problem(in: nested(257))?.offset == 256)
        #expect(JSONSyntax.problem(in: nested(1_000_000))?.offset == 256)
    }
}
