import IntentKit
import Testing
import ValueFunctions

@Suite struct JSONFunctionsTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONFunctions.parse(
            #" {"title": "Emma", "year": 1815, "rating": 4.5, "read": true, "tags": ["a", null], "e": "\u00e9\n\ud83d\ude00"} "#)
        #expect(
            value
                == .dictionary([
                    "title": "Emma", "year": .int(1815), "rating": .double(4.5), "read": .bool(true), "tags": .list(["a", .null]),
                    "e": .string("é\n😀")
                ]))
        #expect(try JSONFunctions.parse("-12") == .int(-12))
        #expect(try JSONFunctions.parse("1e3") == .double(1000))
        #expect(try JSONFunctions.parse("[]") == .list([]))
    }

    @Test(arguments: [
        ("{\n  \"a\": tru\n}", 2, 8, "expected a value, found 'tru'"),
        ("{\"a\": 1,}", 1, 9, "expected a key in double quotes, found '}'"),
        ("[1, 2", 1, 6, "the array opened at line 1, column 1 is not closed with ']'"),
        ("{\"a\" 1}", 1, 6, "expected ':' after the key \"a\", found '1'"),
        ("\"abc", 1, 5, "the string opened at line 1, column 1 is not closed with '\"'"),
        ("[1] x", 1, 5, "unexpected 'x' after the value"),
        ("", 1, 1, "expected a value, found the end of the text"),
        ("[01]", 1, 2, "a number cannot start with 0"),
        ("{\"é\": [1 2]}", 1, 10, "expected ',' or ']' in the array, found '2'"),
        // A text that may be a secret is quoted by its first character alone.
        ("MIIEvQIBADANBgkq", 1, 1, "expected a value, found 'M'"),
        ("[1, 42abcdef]", 1, 7, "expected ',' or ']' in the array, found 'a'"),
        ("[nul]", 1, 2, "expected a value, found 'nul'")
    ])
    func invalidJSONSaysWhereAndWhy(text: String, line: Int, column: Int, reason: String) {
        #expect(throws: ValueFunctionError.invalidJSON(line: line, column: column, reason: reason)) { try JSONFunctions.parse(text) }
    }

    @Test func encodesPrettyAndCompact() throws {
        let value = IntentValue.dictionary(["b": .list([.int(1), .int(2)]), "a": "x/y"])
        #expect(JSONFunctions.encode(value, pretty: false) == #"{"a":"x/y","b":[1,2]}"#)
        #expect(JSONFunctions.encode(value) == "{\n  \"a\" : \"x/y\",\n  \"b\" : [\n    1,\n    2\n  ]\n}")
        #expect(try JSONFunctions.parse(JSONFunctions.encode(value)) == value)
    }
}

@Suite struct CSVFunctionsTests {
    @Test func parsesAHeaderAndQuotedFields() throws {
        let text = "title,note\nEmma,\"a, b\"\n\"Say \"\"hi\"\"\",\"two\nlines\"\r\n\n"
        #expect(
            try CSVFunctions.parse(text) == [
                .dictionary(["title": "Emma", "note": "a, b"]), .dictionary(["title": "Say \"hi\"", "note": "two\nlines"])
            ])
    }

    @Test func recordsKnowTheirLines() throws {
        let records = try CSVFunctions.records("a;b\n\"x\ny\";2\nlast;3", delimiter: ";")
        #expect(records.map(\.line) == [1, 2, 4])
        #expect(records[2].fields == ["last", "3"])
    }

    @Test(arguments: [
        ("a,b\n1,2\n\"x,1\n", 3, "the quoted field that starts here is not closed with '\"'"),
        ("a,b\n1,2,3\n", 2, "3 field(s), but the header on line 1 has 2 column(s)"),
        ("a,b\n\"x\"y,2\n", 2, "'y' after the closing quote of a field; a field in quotes must end at its closing quote"),
        ("a,b\nx\"y,2\n", 2, "a quote inside a field that does not start with one; put the field in quotes and write the quote twice (\"\")"),
        ("a,a\n1,2\n", 1, "the header names the column 'a' twice")
    ])
    func invalidCSVSaysTheLine(text: String, line: Int, reason: String) {
        #expect(throws: ValueFunctionError.invalidCSV(line: line, reason: reason)) { try CSVFunctions.parse(text) }
    }

    @Test func encodesAndReadsBack() throws {
        let rows: [IntentValue] = [.dictionary(["title": "Emma", "note": "a, \"b\""]), .dictionary(["title": "Two\nlines"])]
        let text = try CSVFunctions.encode(rows, columns: ["title", "note"])
        #expect(text == "title,note\nEmma,\"a, \"\"b\"\"\"\n\"Two\nlines\",\n")
        #expect(try CSVFunctions.parse(text) == [rows[0], .dictionary(["title": "Two\nlines", "note": ""])])
        #expect(try CSVFunctions.encode([.list([.int(1), "x"])]) == "1,x\n")
        #expect(throws: ValueFunctionError.self) { try CSVFunctions.encode([.int(3)]) }
    }
}
