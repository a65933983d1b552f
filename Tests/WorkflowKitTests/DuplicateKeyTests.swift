import ShortcutsSystemTestSupport
import Testing

@testable import WorkflowKit

/// Repeated mapping keys are found in one pass and each is reported where it is written, so a
/// file full of them loads in time proportional to its length.
@Suite("Duplicate keys")
struct DuplicateKeyTests {
    @Test func repeatsAreFoundPerMappingInOnePass() {
        let yaml = """
            a: 1
            b: { a: 1, a: 2 }
            c:
              - a: 1
              - a: 2
                a: 3
            'a': 4
            ---
            a: 5
            a: 6

            """
        let repeats = DuplicateKeyFinder.repeatedKeys(in: yaml).map { "\($0.name) \($0.line):\($0.column) of \($0.firstLine):\($0.firstColumn)" }
        #expect(repeats == ["a 2:12 of 2:6", "a 6:5 of 5:5", "a 7:1 of 1:1"])
    }

    @Test func everyRepeatIsReportedWhereItIsWritten() {
        let names = (0..<600).map { "name: \($0)\n" }.joined()
        let steps = (0..<300).map { _ in "  - show: 1\n    show: 2\n" }.joined()
        let found = diagnostics(loading: names + "steps:\n" + steps)
        let expected =
            (2...600).map { "\($0):1: duplicate key 'name' (first defined at line 1)" }
            + (0..<300).map { "\(603 + 2 * $0):5: duplicate key 'show' (first defined at line \(602 + 2 * $0))" }
        #expect(found.map(summary) == expected)
    }

    @Test func aRepeatThatCannotBeRenamedIsReportedByRenamingTheFirstKey() {
        #expect(
            diagnostics(loading: "steps:\n  - show: 1\n    \"\\u0073how\": 2\n").map(summary) == [
                "3:5: duplicate key 'show' (first defined at line 2)"
            ])
    }

    /// A file of about 200 KB that repeats its `name` key `count` times.
    static func text(repeatingNameKey count: Int) -> String {
        let names = (0...count).map { "name: \($0)\n" }.joined()
        let filler = "  - show: \"a line of text that fills the file to the same size\"\n"
        let steps = String(repeating: filler, count: (200_000 - names.utf8.count) / filler.utf8.count)
        return names + "steps:\n" + steps
    }

    @Test func loadingManyRepeatsTakesTimeInProportionToTheFile() async {
        let few = Self.text(repeatingNameKey: 50)
        let many = Self.text(repeatingNameKey: 500)
        #expect(diagnostics(loading: many).count == 500)
        let growth = await GrowthRatio.measure(rounds: 3, small: { _ = diagnostics(loading: few) }, large: { _ = diagnostics(loading: many) })
        // The same size: about the same time when read once, ten times as long when parsed again per repeat.
        #expect(growth.ratio < 4, "50 repeats against 500: \(growth)")
    }
}
