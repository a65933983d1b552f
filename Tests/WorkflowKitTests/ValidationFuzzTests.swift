import Foundation
import IntentKit
import LibraryApp
import SeededRandom
import Testing

@testable import WorkflowKit

/// Randomly damaged copies of the shipped workflows, loaded and validated against the real
/// Library: nothing crashes, and every problem is a diagnostic located inside the file.
@Suite("Validation fuzz")
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
}
