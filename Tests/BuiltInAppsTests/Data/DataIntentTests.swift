import IntentKit
import Testing

@Suite struct DataIntentTests {
    @Test func parsesAndEncodesJSON() async throws {
        let value = try await BuiltInIntents.perform("Data.ParseJSON", ["text": .string(#"{"b": [1, 2.5], "a": "x"}"#)])
        #expect(value == .dictionary(["a": .string("x"), "b": .list([.int(1), .double(2.5)])]))
        #expect(
            try await BuiltInIntents.perform("Data.EncodeJSON", ["value": value, "style": .string("compact")]) == .string(#"{"a":"x","b":[1,2.5]}"#))
        #expect(try await BuiltInIntents.perform("Data.EncodeJSON", ["value": .list([.int(1)])]) == .string("[\n  1\n]"))
    }

    @Test func invalidJSONFailsWithLineAndColumn() async {
        let message = await BuiltInIntents.failure("Data.ParseJSON", ["text": .string("{\n  \"a\": 1,\n  \"b\": }")])
        #expect(message == "Data.ParseJSON failed: invalid JSON at line 3, column 8: expected a value, found '}'")
    }

    @Test func getsAndSetsAtKeyPaths() async throws {
        let release = IntentValue.dictionary(["assets": .list([.dictionary(["name": .string("app.tar.gz")])])])
        #expect(try await BuiltInIntents.perform("Data.GetValue", ["value": release, "path": .string("assets[0].name")]) == .string("app.tar.gz"))
        #expect(try await BuiltInIntents.perform("Data.GetValue", ["value": release, "path": .string("assets[-1].name")]) == .string("app.tar.gz"))
        #expect(
            try await BuiltInIntents.perform("Data.GetValue", ["value": release, "path": .string("assets[0].size"), "defaultValue": .int(0)])
                == .int(0))
        let updated = try await BuiltInIntents.perform("Data.SetValue", ["value": release, "path": .string("assets[0].size"), "newValue": .int(42)])
        #expect(updated == .dictionary(["assets": .list([.dictionary(["name": .string("app.tar.gz"), "size": .int(42)])])]))
    }

    @Test func aMissingKeyNamesTheKeysThereAre() async {
        let message = await BuiltInIntents.failure("Data.GetValue", ["value": .dictionary(["name": .int(1)]), "path": .string("nmae")])
        #expect(message == "Data.GetValue failed: key path 'nmae': the value has no key 'nmae' (its keys: name)")
    }

    @Test func parsesAndEncodesCSV() async throws {
        let rows = try await BuiltInIntents.perform("Data.ParseCSV", ["text": .string("title;note\nEmma;\"a; b\"\n"), "delimiter": .string(";")])
        #expect(rows == .list([.dictionary(["title": .string("Emma"), "note": .string("a; b")])]))
        let lists = try await BuiltInIntents.perform("Data.ParseCSV", ["text": .string("a,b\n1,2\n"), "header": .bool(false)])
        #expect(lists == .list([.list([.string("a"), .string("b")]), .list([.string("1"), .string("2")])]))
        let text = try await BuiltInIntents.perform("Data.EncodeCSV", ["rows": rows, "columns": .list([.string("title"), .string("note")])])
        #expect(text == .string("title,note\nEmma,a; b\n"))
    }

    @Test func invalidCSVFailsWithTheLine() async {
        let message = await BuiltInIntents.failure("Data.ParseCSV", ["text": .string("a,b\n1,2\n3\n")])
        #expect(message == "Data.ParseCSV failed: invalid CSV at line 3: 1 field(s), but the header on line 1 has 2 column(s)")
        let delimiter = await BuiltInIntents.failure("Data.ParseCSV", ["text": .string("a"), "delimiter": .string("::")])
        #expect(delimiter == "Data.ParseCSV failed: invalid 'delimiter': '::' is not one character; write one such as , or ; or a tab")
    }

    @Test func aLiteralMalformedKeyPathIsAValidationError() throws {
        let yaml = """
            steps:
              - perform: Data.GetValue
                with: { value: "{}", path: "a[x" }
            """
        #expect(try BuiltInIntents.diagnostics(of: yaml) == ["3:32: invalid key path 'a[x': '[' is not closed with ']' (at character 2)"])
    }
}
