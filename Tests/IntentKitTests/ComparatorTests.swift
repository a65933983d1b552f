import Foundation
import IntentKit
import Testing

struct ComparatorTests {
    @Test(arguments: [
        (ComparatorKind.equalTo, IntentValue.string("Café"), [IntentValue.string("cafe")], true),
        (.equalTo, .int(3), [.double(3.0)], true),
        (.notEqualTo, .string("a"), [.string("b")], true),
        (.notEqualTo, .null, [.string("b")], true),
        (.contains, .string("Where the Crawdads Sing"), [.string("CRAWDAD")], true),
        (.contains, .list([.string("a"), .string("b")]), [.string("b")], true),
        (.hasPrefix, .string("Nemesis"), [.string("nem")], true),
        (.hasSuffix, .string("Nemesis"), [.string("SIS")], true),
        (.hasSuffix, .string("Nemesis"), [.string("nem")], false),
        (.lessThan, .date(DateText.parse("1990-01-01")!), [.string("2000-01-01")], true),
        (.lessThanOrEqualTo, .int(2), [.int(2)], true),
        (.greaterThan, .double(2.5), [.int(2)], true),
        (.greaterThan, .null, [.int(2)], false),
        (.greaterThanOrEqualTo, .string("b"), [.string("B")], true),
        (.isBetween, .int(5), [.int(1), .int(5)], true),
        (.isBetween, .int(6), [.int(1), .int(5)], false)
    ])
    func comparatorsEvaluateInMemory(kind: ComparatorKind, value: IntentValue, operands: [IntentValue], expected: Bool) {
        #expect(kind.evaluate(value, operands) == expected)
    }

    @Test func enumerableQueriesFilterSortAndLimitInMemory() async throws {
        let found = try await EntityQueries.find(
            Color.self,
            conditions: [PropertyCondition(property: "brightness", comparator: .greaterThan, operands: [.int(25)])],
            sortedBy: [PropertySort(property: "brightness", order: .descending)], limit: 5)
        #expect(found.map(\.displayText) == ["Rose", "Red"])
        let any = try await EntityQueries.find(
            Color.self,
            conditions: [
                PropertyCondition(property: "name", comparator: .hasPrefix, operands: [.string("b")]),
                PropertyCondition(property: "name", comparator: .equalTo, operands: [.string("RED")])
            ],
            mode: .or, sortedBy: [PropertySort(property: "name")])
        #expect(any.map(\.displayText) == ["Blue", "Red"])
    }

    @Test func filteringAnUnknownPropertyNamesTheKnownOnes() throws {
        #expect(throws: EntityQueryError.unknownProperty(entity: "Color", property: "nme", known: ["brightness", "name"])) {
            try EntityQueries.filter(
                Color.all.map(\.intentValue), conditions: [PropertyCondition(property: "nme", comparator: .equalTo, operands: [.string("x")])])
        }
    }

    @Test func capabilitiesOfAnEnumerableQueryOfferEveryComparator() {
        let capabilities = EntityQueries.capabilities(of: Color.self)
        #expect(capabilities.isEnumerable && !capabilities.supportsPropertyQuery)
        #expect(capabilities.properties.map(\.name) == ["name", "brightness"])
        #expect(capabilities.properties[0].comparators == ComparatorKind.allCases.filter(\.takesOperand))
    }
}

/// One vocabulary of comparisons: presence tests sit beside the ten query comparators, and
/// parameter summaries compare the same way.
@Suite("Comparator vocabulary")
struct ComparatorVocabularyTests {
    @Test func presenceTestsTreatNullAndEmptyListsAsNoValue() {
        #expect(ComparatorKind.hasValue.evaluate(.string("x"), []))
        #expect(!ComparatorKind.hasValue.evaluate(.null, []))
        #expect(!ComparatorKind.hasValue.evaluate(.list([]), []))
        #expect(ComparatorKind.hasNoValue.evaluate(.list([]), []))
        #expect(!ComparatorKind.hasNoValue.evaluate(.int(0), []))
        #expect(ComparatorKind.allCases.filter { !$0.takesOperand } == [.hasValue, .hasNoValue])
    }

    @Test(arguments: [IntentValue.int(1), .int(2), .int(3), .null])
    func summaryComparisonsAgreeWithComparatorKind(_ actual: IntentValue) {
        let comparisons: [ParameterSummaryComparison] = [.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo]
        for comparison in comparisons {
            let kind = ComparatorKind(rawValue: "\(comparison)")
            #expect(kind != nil)
            #expect(
                kind?.evaluate(actual, [.int(2)])
                    == kind.map { _ in
                        // The summary's own rule before it used ComparatorKind: no value only passes notEqualTo.
                        guard !actual.isNull else { return comparison == .notEqualTo }
                        let order = ValueComparison.order(actual, .int(2))
                        switch comparison {
                        case .equalTo: return order == .orderedSame
                        case .notEqualTo: return order != .orderedSame
                        case .lessThan: return order == .orderedAscending
                        case .lessThanOrEqualTo: return order != .orderedDescending
                        case .greaterThan: return order == .orderedDescending
                        case .greaterThanOrEqualTo: return order != .orderedAscending
                        }
                    })
        }
    }
}
