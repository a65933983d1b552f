import Foundation
import IntentKit
import Testing
import ValueFunctions

@Suite struct ListFunctionsTests {
    let books: [IntentValue] = [
        ["title": "Emma", "author": "Jane Austen", "year": .int(1815)],
        ["title": "Where the Crawdads Sing", "author": "Delia Owens", "year": .int(2018)],
        ["title": "Persuasion", "author": "Jane Austen", "year": .int(1817)],
        ["title": "Cry of the Kalahari", "author": "Delia Owens", "year": .int(1984)],
        ["title": "Beloved", "author": "Toni Morrison", "year": .int(1987)],
        ["title": "Sanditon", "author": "Jane Austen"]
    ]

    func titles(_ list: [IntentValue]) -> [String] { list.map { $0.member("title")?.displayText ?? "?" } }

    @Test func getsItemsByPosition() throws {
        #expect(try ListFunctions.first([.int(1), .int(2)]) == .int(1))
        #expect(try ListFunctions.last([.int(1), .int(2)]) == .int(2))
        #expect(try ListFunctions.item(-2, of: [.int(1), .int(2), .int(3)]) == .int(2))
        #expect(ListFunctions.slice([.int(1), .int(2), .int(3), .int(4)], from: 1, to: -1) == [.int(2), .int(3)])
        #expect(ListFunctions.slice([.int(1), .int(2)], from: 5) == [])
        #expect([.int(1), .int(2)].contains(try ListFunctions.random([.int(1), .int(2)])))
        #expect(throws: ValueFunctionError.emptyList(argument: "list", function: "first element")) { try ListFunctions.first([]) }
        #expect {
            try ListFunctions.item(3, of: [.int(1)])
        } throws: { error in
            "\(error)" == "invalid 'index': position 3 is outside the list of 1 element(s)"
        }
    }

    @Test func sortsValuesAndDictionariesByKey() throws {
        #expect(try ListFunctions.sort([.int(3), .double(1.5), .int(2)]) == [.double(1.5), .int(2), .int(3)])
        #expect(try ListFunctions.sort(["banana", "Apple", "cherry"]) == ["Apple", "banana", "cherry"])
        #expect(
            titles(try ListFunctions.sort(books, by: "year")) == [
                "Emma", "Persuasion", "Cry of the Kalahari", "Beloved", "Where the Crawdads Sing", "Sanditon"
            ])
        #expect(titles(try ListFunctions.sort(books, by: "year", descending: true)).prefix(2) == ["Where the Crawdads Sing", "Beloved"])
        #expect(titles(try ListFunctions.sort(books, by: "year", descending: true)).last == "Sanditon")
        #expect(titles(try ListFunctions.sort(books, by: "author")).prefix(3) == ["Where the Crawdads Sing", "Cry of the Kalahari", "Emma"])
    }

    @Test func sortsEntitiesByProperty() throws {
        let entities: [IntentValue] = ["b", "a"].map {
            .entity(EntityValue(typeName: "Thing", identifier: $0, title: $0.uppercased(), properties: ["name": .string($0)]))
        }
        #expect(try ListFunctions.sort(entities, by: "name").map(\.displayText) == ["A", "B"])
    }

    @Test func keepsTheFirstOfRepeats() throws {
        #expect(try ListFunctions.unique([.int(1), .int(2), .int(1), "x", "x"]) == [.int(1), .int(2), "x"])
        #expect(titles(try ListFunctions.unique(books, by: "author")) == ["Emma", "Where the Crawdads Sing", "Beloved"])
    }

    @Test func countsByKeyMostFrequentFirst() throws {
        #expect(
            try ListFunctions.countBy(books, key: "author") == [
                ["key": "Jane Austen", "count": .int(3)], ["key": "Delia Owens", "count": .int(2)], ["key": "Toni Morrison", "count": .int(1)]
            ])
        let tagged: [IntentValue] = [["tags": ["a", "b"]], ["tags": ["b"]]]
        #expect(try ListFunctions.countBy(tagged, key: "tags") == [["key": "b", "count": .int(2)], ["key": "a", "count": .int(1)]])
        #expect(try ListFunctions.countBy(["x", "y", "x"]) == [["key": "x", "count": .int(2)], ["key": "y", "count": .int(1)]])
        #expect(throws: ValueFunctionError.self) { try ListFunctions.countBy(books, key: "a..b") }
    }
}
