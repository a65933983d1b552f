import IntentKit
import Testing

@Suite struct ListsIntentTests {
    let books = IntentValue.list(
        [
            ("Emma", "Jane Austen", 1815), ("Where the Crawdads Sing", "Delia Owens", 2018), ("Persuasion", "Jane Austen", 1817),
            ("Beloved", "Toni Morrison", 1987)
        ]
        .map { .dictionary(["title": .string($0.0), "author": .string($0.1), "year": .int($0.2)]) })

    func titles(_ value: IntentValue) -> [String] { value.elements.map { $0.member("title")?.displayText ?? "?" } }

    @Test func getsItems() async throws {
        let list = IntentValue.list([.int(1), .int(2), .int(3), .int(4)])
        #expect(try await BuiltInIntents.perform("Lists.GetItem", ["list": list]) == .int(1))
        #expect(try await BuiltInIntents.perform("Lists.GetItem", ["list": list, "position": .string("last")]) == .int(4))
        #expect(try await BuiltInIntents.perform("Lists.GetItem", ["list": list, "position": .string("index"), "index": .int(-2)]) == .int(3))
        #expect(
            try await BuiltInIntents.perform("Lists.GetItem", ["list": list, "position": .string("range"), "index": .int(1), "end": .int(3)])
                == .list([.int(2), .int(3)]))
        #expect(list.elements.contains(try await BuiltInIntents.perform("Lists.GetItem", ["list": list, "position": .string("random")])))
        let empty = await BuiltInIntents.failure("Lists.GetItem", ["list": .list([])])
        #expect(empty == "Lists.GetItem failed: the first element of an empty list is undefined ('list' has no elements)")
    }

    @Test func sortsByKey() async throws {
        #expect(
            titles(try await BuiltInIntents.perform("Lists.Sort", ["list": books, "by": .string("year")])) == [
                "Emma", "Persuasion", "Beloved", "Where the Crawdads Sing"
            ])
        #expect(
            titles(try await BuiltInIntents.perform("Lists.Sort", ["list": books, "by": .string("title"), "order": .string("descending")]))
                == ["Where the Crawdads Sing", "Persuasion", "Emma", "Beloved"])
        #expect(
            try await BuiltInIntents.perform("Lists.Sort", ["list": .list([.string("b"), .string("A"), .string("c")])])
                == .list([.string("A"), .string("b"), .string("c")]))
    }

    @Test func removesDuplicates() async throws {
        #expect(
            titles(try await BuiltInIntents.perform("Lists.Unique", ["list": books, "by": .string("author")])) == [
                "Emma", "Where the Crawdads Sing", "Beloved"
            ])
        #expect(try await BuiltInIntents.perform("Lists.Unique", ["list": .list([.int(1), .int(1), .int(2)])]) == .list([.int(1), .int(2)]))
    }

    @Test func countsTopAuthors() async throws {
        let top = try await BuiltInIntents.perform("Lists.Count", ["list": books, "by": .string("author"), "limit": .int(2)])
        #expect(
            top
                == .list([
                    .dictionary(["key": .string("Jane Austen"), "count": .int(2)]), .dictionary(["key": .string("Delia Owens"), "count": .int(1)])
                ]))
    }

    @Test func aLiteralMalformedKeyIsAValidationError() throws {
        let yaml = """
            steps:
              - perform: Lists.Sort
                with: { list: [b, a], by: "author..name" }
            """
        #expect(
            try BuiltInIntents.diagnostics(of: yaml) == [
                "3:31: invalid key path 'author..name': an empty key; write a name between the dots (at character 8)"
            ])
    }
}
