import Foundation
import ShortcutsSystemTestSupport
import Testing

/// `parallel:` branches through the `shortcuts` binary: outputs in branch order, branches side
/// by side in `runs show`, a failing branch cancelling the others, and located errors.
@Suite("Parallel and inputs", .endToEnd)
struct ParallelAndInputTests {
    let fixtures = "Tests/EndToEndTests/Fixtures/Parallel/"

    @Test func branchesRunAtOnceAndOutputInBranchOrder() async throws {
        let shortcuts = try ShortcutsBinary()
        let started = Date()
        let result = try await shortcuts.run(["run", fixtures + "three-branches.yaml", "--output-type", "json", "--no-interaction"])
        #expect(result.status == 0, "\(result.error)")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(result.output.contains("slow, fast, middle middle"), "\(result.output)")
    }

    @Test func runsShowGroupsTheStepsByBranch() async throws {
        let shortcuts = try ShortcutsBinary()
        #expect(try await shortcuts.run(["run", fixtures + "three-branches.yaml", "--no-interaction"]).status == 0)
        let id = try #require(try await shortcuts.run(["runs", "list"]).output.split(separator: "\n").dropFirst().first?.prefix(8))
        let shown = try await shortcuts.run(["runs", "show", String(id)]).output
        let kinds = shown.split(separator: "\n").filter { $0.contains(" ✔ ") || $0.contains(" ✘ ") }.map { line in
            let indent = line.prefix { $0 == " " }.count
            return "\(indent):\(line.split(separator: " ")[2])"
        }
        #expect(kinds == ["2:parallel", "4:branch", "6:wait", "6:set", "6:show", "4:branch", "6:show", "4:branch", "6:wait", "6:show"], "\(shown)")
        #expect(shown.contains("in: {branch: 2}") || shown.contains("\"branch\""), "\(shown)")
    }

    @Test func aFailingBranchCancelsTheOthers() async throws {
        let started = Date()
        let result = try await ShortcutsBinary().run(["run", fixtures + "failing-branch.yaml", "--no-interaction"])
        #expect(result.status == 1)
        #expect(Date().timeIntervalSince(started) < 8, "the 10 s wait was not cancelled")
        #expect(result.error.contains("failing-branch.yaml:5:20: error: Shell.RunScript failed"), "\(result.error)")
    }

    @Test func aParallelWithoutBranchesIsALocatedError() async throws {
        let result = try await ShortcutsBinary().run(["validate", fixtures + "no-branches.yaml"])
        #expect(result.status == 1)
        #expect(result.error.contains("no-branches.yaml:3:15: error: 'parallel' needs at least one branch"), "\(result.error)")
    }

    @Test func viewOutlinesTheBranches() async throws {
        let view = try await ShortcutsBinary().run(["view", fixtures + "three-branches.yaml"])
        #expect(view.status == 0)
        #expect(view.output.contains("  3: parallel\n    branch 1:\n      4: wait\n"), "\(view.output)")
        #expect(view.output.contains("    branch 3:\n      9: wait\n      10: show  → middle"))
    }

    @Test func choicesAreAnsweredInScripts() async throws {
        let shortcuts = try ShortcutsBinary()
        let answered = try await shortcuts.run([
            "run", fixtures + "choose-books.yaml", "--answer", "one=beloved", "--answer", "several=Beloved,1"
        ])
        #expect(answered.status == 0, "\(answered.error)")
        #expect(answered.output.hasSuffix("Beloved / Emma, Beloved\n"), "\(answered.output)")
        let unanswered = try await shortcuts.run(["validate", fixtures + "choose-books.yaml"])
        #expect(unanswered.status == 0)
        let wrong = try await shortcuts.run(["run", fixtures + "choose-books.yaml", "--answer", "one=Ulysses", "--answer", "several=1"])
        #expect(wrong.status == 1)
        #expect(wrong.error.contains("choose-books.yaml:6:5: error:") && wrong.error.contains("Ulysses"), "\(wrong.error)")
    }

    @Test func typedInputsAreCheckedShownAndResolved() async throws {
        let shortcuts = try ShortcutsBinary()
        let wrong = try await shortcuts.run(["run", fixtures + "typed-inputs.yaml", "--input", "copies=many", "--input", "when=2024-01-01"])
        #expect(wrong.status == 1)
        #expect(
            wrong.error.contains("typed-inputs.yaml:3:3: error: input 'copies' expects integer: cannot use String 'many' as Int"), "\(wrong.error)")
        let view = try await shortcuts.run(["view", fixtures + "typed-inputs.yaml"])
        #expect(
            view.output.contains("  copies: integer = 1  How many copies\n  when: date  The day\n  book: Library.BookEntity (optional)"),
            "\(view.output)")
        let schema = try await shortcuts.run(["schema"])
        #expect(schema.output.contains("Library\\\\.BookEntity"), "the specialised schema does not know the entity types")
        #expect(try await shortcuts.run(["run", "Workflows/random-book.yaml", "--no-interaction"]).status == 0)
        let resolved = try await shortcuts.run(["run", fixtures + "typed-inputs.yaml", "--input", "when=2024-01-01", "--input", "book=emma"])
        #expect(resolved.status == 0, "\(resolved.error)")
        #expect(resolved.output.hasSuffix("1 Emma\n"), "\(resolved.output)")
    }
}
