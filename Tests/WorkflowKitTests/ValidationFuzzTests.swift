import Foundation
import IntentKit
import LibraryApp
import SeededRandom
import ShortcutsSystemTestSupport
import Testing

@testable import WorkflowKit

/// Randomly damaged copies of the shipped workflows, loaded and validated against the real
/// Library: nothing crashes, and every problem is a diagnostic located inside the file.
@Suite("Validation fuzz", .onThreadOfItsOwn)
struct ValidationFuzzTests {
    static let seed: UInt64 = 0x0A11_DA7E
    static let iterations = 10_000

    @Test func damagedWorkflowsNeverCrashValidation() throws {
        let folder = Fixtures.packageRoot.appendingPathComponent("Workflows")
        let originals = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
            .map { (name: $0, text: try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
        #expect(originals.count >= 8)
        let validator = WorkflowValidator(catalog: IntentCatalog(apps: [LibraryApp.app]), isHeadless: true)
        var generator = SeededRandomNumberGenerator(seed: Self.seed)
        var loadingErrors = 0
        var validationErrors = 0
        var valid = 0
        var badLocations: [String] = []
        for iteration in 0..<Self.iterations {
            let original = originals[Int.random(in: 0..<originals.count, using: &generator)]
            var text = original.text
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                text = LoadingFuzzTests.mutate(text, using: &generator)
            }
            let fileName = "Workflows/\(original.name)"
            let diagnostics: [Diagnostic]
            do {
                let workflow = try WorkflowLoader.load(text: text, fileName: fileName)
                let checked = validator.check(workflow)
                diagnostics = checked.diagnostics
                if diagnostics.isEmpty { valid += 1 } else { validationErrors += 1 }
                _ = DiagnosticRenderer(sources: checked.sources).render(diagnostics)
            } catch {
                loadingErrors += 1
                diagnostics = error.diagnostics
            }
            for diagnostic in diagnostics where diagnostic.location.file == fileName {
                if let problem = LoadingFuzzTests.problem(with: diagnostic, in: text, fileName: fileName), badLocations.count < 10 {
                    badLocations.append("iteration \(iteration): \(problem)")
                }
            }
        }
        #expect(badLocations.isEmpty, "\(badLocations.joined(separator: "\n"))")
        #expect(loadingErrors + validationErrors + valid == Self.iterations)
        #expect(validationErrors > 100, "damage to names must be caught by validation, not only by loading")
    }

    /// Expressions to damage: every operator, literal kind and a few functions.
    static let expressions = [
        #"${a + b * 2 - (a % 3) / 1.5}"#, #"${count(books) > 3 && shelf == "read" || !done}"#,
        #"${a > 1 ? upper(shelf) : 'small'}"#, #"${books[-1] ?? {"k": [1, 2]}.k?.count}"#,
        #"${format("{0} by {1}", trim(shelf), join(sort(books), ", "))}"#, #"${dateAdd(now, 1, "day").year + now.month}"#,
        #"${toJSON(fromJSON("[1, 2]")) + "é\u{1F600}"}"#
    ]

    /// Pieces inserted into expressions: operators, parentheses, quotes, escapes and non-ASCII text.
    static let pieces = [
        "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "!", "?", ":", "??", "?.", ".", ",", "(", ")",
        "[", "]", "{", "}", "\"", "'", "\\", "\\u{", "${", "$", " ", "é", "☃", "😀", "\u{0301}", "1e999", "99999999999999999999",
        "null", "true", "upper", "uper", "books", "bokos", "now", "-1"
    ]

    @Test func damagedExpressionsNeverCrashAndEveryErrorIsLocated() async throws {
        let validator = WorkflowValidator(catalog: IntentCatalog(apps: []), isHeadless: true)
        var generator = SeededRandomNumberGenerator(seed: Self.seed ^ 0xE4)
        let runner = WorkflowRunner(catalog: IntentCatalog(apps: []))
        var errors = 0
        var ran = 0
        var badLocations: [String] = []
        for iteration in 0..<Self.iterations {
            var expression = Array(Self.expressions[Int.random(in: 0..<Self.expressions.count, using: &generator)])
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0...expression.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:
                    expression.insert(contentsOf: Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &generator)], at: at)
                case 1 where at < expression.count:
                    expression.remove(at: at)
                default:
                    let other = Int.random(in: 0...expression.count, using: &generator)
                    if at < expression.count, other < expression.count { expression.swapAt(at, other) }
                }
            }
            let quoted = String(expression).replacingOccurrences(of: "'", with: "''")
            let text = """
                steps:
                  - set: books
                    to: [b, a]
                  - set: shelf
                    to: read
                  - set: a
                    to: 1
                  - set: b
                    to: 2
                  - set: done
                    to: false
                  - if: '\(quoted)'
                    then: [ { set: c, to: 1 } ]
                output: '\(quoted)'

                """
            let fileName = "expressions.yaml"
            var diagnostics: [Diagnostic] = []
            var valid: Workflow?
            do {
                let workflow = try WorkflowLoader.load(text: text, fileName: fileName)
                let checked = validator.check(workflow)
                diagnostics = checked.diagnostics
                _ = DiagnosticRenderer(sources: checked.sources).render(diagnostics)
                if diagnostics.isEmpty { valid = workflow }
            } catch {
                diagnostics = error.diagnostics
            }
            if let valid {
                // What validation accepts runs to a value or fails at a location in the file.
                do {
                    _ = try await runner.run(valid)
                    ran += 1
                } catch let error as WorkflowRunError {
                    if let problem = LoadingFuzzTests.problem(with: error.diagnostic, in: text, fileName: fileName), badLocations.count < 10 {
                        badLocations.append("iteration \(iteration) '\(String(expression))' at run time: \(problem)")
                    }
                }
            }
            if !diagnostics.isEmpty { errors += 1 }
            for diagnostic in diagnostics {
                if let problem = LoadingFuzzTests.problem(with: diagnostic, in: text, fileName: fileName), badLocations.count < 10 {
                    badLocations.append("iteration \(iteration) '\(String(expression))': \(problem)")
                }
            }
        }
        #expect(badLocations.isEmpty, "\(badLocations.joined(separator: "\n"))")
        #expect(errors > Self.iterations / 4, "most damaged expressions must be reported")
        #expect(ran > 100, "some damaged expressions must still be valid and run")
    }
}
