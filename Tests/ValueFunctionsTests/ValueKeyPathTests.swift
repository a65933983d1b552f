import IntentKit
import Testing
import ValueFunctions

@Suite struct ValueKeyPathTests {
    let library: IntentValue = [
        "owner": ["name": "Ann"],
        "books": [["title": "Emma", "tags": ["classic", "romance"]], ["title": "Persuasion", "tags": []]]
    ]

    @Test func readsKeysAndPositions() throws {
        #expect(try ValueKeyPath("owner.name").value(in: library) == "Ann")
        #expect(try ValueKeyPath("books[0].tags[1]").value(in: library) == "romance")
        #expect(try ValueKeyPath("books[-1].title").value(in: library) == "Persuasion")
        #expect(try ValueKeyPath("books.count").value(in: library) == .int(2))
        #expect(try ValueKeyPath(#"["owner"]["name"]"#).value(in: library) == "Ann")
    }

    @Test func parsesComponents() throws {
        #expect(try ValueKeyPath("a.b[0].c").components == [.key("a"), .key("b"), .index(0), .key("c")])
        #expect(try ValueKeyPath("[\"file.name\"][-2]").components == [.key("file.name"), .index(-2)])
    }

    @Test(arguments: [
        ("a..b", "key path 'a..b': an empty key; write a name between the dots (at character 3)"),
        ("a[0", "key path 'a[0': '[' is not closed with ']' (at character 2)"),
        ("a[x]", "key path 'a[x]': '[x]' is neither a position such as [0] or [-1] nor a quoted key such as [\"name\"] (at character 2)"),
        ("a.", "key path 'a.': ends with '.'; write a key after it")
    ])
    func aMalformedPathSaysWhere(path: String, message: String) {
        #expect {
            try ValueKeyPath(path)
        } throws: { error in
            "\(error)" == message
        }
    }

    @Test func aMissingKeyNamesTheKeysThereAre() {
        #expect {
            try ValueKeyPath("owner.nmae").value(in: library)
        } throws: { error in
            "\(error)" == "key path 'owner.nmae': 'owner' has no key 'nmae' (its keys: name)"
        }
        #expect {
            try ValueKeyPath("books[5]").value(in: library)
        } throws: { error in
            "\(error)" == "key path 'books[5]': position 5 is past the end of 'books', which has 2 element(s)"
        }
        #expect {
            try ValueKeyPath("owner[0]").value(in: library)
        } throws: { error in
            "\(error)" == "key path 'owner[0]': 'owner' is Dictionary, not a list, so it has no position [0]"
        }
    }

    @Test func setsCreatingWhatIsMissing() throws {
        let renamed = try ValueKeyPath("books[1].title").setting("Emma 2", in: library)
        #expect(try ValueKeyPath("books[1].title").value(in: renamed) == "Emma 2")
        #expect(try ValueKeyPath("books[0].title").value(in: renamed) == "Emma")
        #expect(try ValueKeyPath("window.size[0]").setting(.int(800), in: .dictionary([:])) == ["window": ["size": [.int(800)]]])
        let appended = try ValueKeyPath("books[2]").setting(["title": "Sanditon"], in: library)
        #expect(try ValueKeyPath("books[-1].title").value(in: appended) == "Sanditon")
        #expect(throws: ValueFunctionError.self) { try ValueKeyPath("books[9]").setting(.null, in: library) }
        #expect(throws: ValueFunctionError.self) { try ValueKeyPath("owner.name.first").setting(.null, in: library) }
    }
}
