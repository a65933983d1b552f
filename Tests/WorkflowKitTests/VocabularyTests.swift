import IntentKit
import Testing

@testable import WorkflowKit

/// Workflows write conditions and sorts in IntentKit's vocabulary: no names to convert.
@Suite("Shared vocabulary")
struct VocabularyTests {
    @Test func conditionsAndSortsAreIntentKitTypes() throws {
        let workflow = try WorkflowLoader.load(
            text: """
                steps:
                  - filter: ${previous}
                    where: { title: { hasValue: true }, pages: { isBetween: [1, 2] } }
                    sortBy: [ { title: descending }, pages ]
                """, fileName: "vocabulary.yaml")
        guard case .filter(let filter) = workflow.steps.first?.kind, case .all(let parts, _)? = filter.condition else {
            Issue.record("expected a filter with two conditions")
            return
        }
        let comparators: [ComparatorKind] = parts.compactMap {
            if case .comparison(let comparison) = $0 { return comparison.comparator }
            return nil
        }
        #expect(comparators == [.hasValue, .isBetween])
        let orders: [EntityQuerySortOrder] = filter.sortBy.map(\.order)
        #expect(orders == [.descending, .ascending])
    }
}
