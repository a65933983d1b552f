import Foundation
import Testing

/// Expressions with operators and functions, driven through the `shortcuts` binary: numbers
/// add up as numbers, conditions are boolean expressions, and mistakes are located inside
/// the `${…}` with a caret, at validation or at run time.
@Suite("Expressions", .endToEnd)
struct ExpressionTests {
    static func fixture(_ name: String) -> String { PackagePaths.fixture("Expressions/" + name) }

    @Test func addingNumbersInALoopGivesSixNotText() async throws {
        let result = try await ShortcutsBinary().run(["run", Self.fixture("sum-in-loop.yaml")])
        #expect(result.status == 0, "\(result.error)")
        let year = Calendar.current.component(.year, from: Date())
        #expect(result.output == "6 is even and more than five; this year is \(year)\n6\n")
    }

    @Test func functionsAndBooleanConditionsWorkOnInputs() async throws {
        let shortcuts = try ShortcutsBinary()
        let many = try await shortcuts.run(
            ["run", Self.fixture("books.yaml"), "--input-path", "-"], input: #"{"books": ["Emma", "Dune", "Emma", "Beloved", "Ulysses"]}"#)
        #expect(many.status == 0, "\(many.error)")
        #expect(many.output == "5 books, first Beloved\nEMMA/DUNE/BELOVED/ULYSSES\n")
        let few = try await shortcuts.run(["run", Self.fixture("books.yaml"), "--input-path", "-"], input: #"{"books": ["b", "a"]}"#)
        #expect(few.status == 0, "\(few.error)")
        #expect(few.output == "a, b\nB/A\n")
    }

    @Test func anUnknownFunctionIsLocatedWithASuggestion() async throws {
        let file = Self.fixture("bad-function.yaml")
        let result = try await ShortcutsBinary().run(["validate", file])
        #expect(result.status == 1)
        #expect(
            result.error.contains(
                """
                \(file):5:11: error: unknown function 'cuont'
                    5 | output: ${cuont(books) + 1}
                      |           ^~~~~
                help: did you mean 'count'?
                """), "\(result.error)")
    }

    @Test func divisionByZeroFailsTheRunAtTheOperator() async throws {
        let file = Self.fixture("divide-by-zero.yaml")
        let result = try await ShortcutsBinary().run(["run", file])
        #expect(result.status == 1)
        #expect(result.error.contains("\(file):5:14: error: division by zero"), "\(result.error)")
    }
}
