import SeededRandom
import ShortcutsSystemTestSupport
import Testing

@testable import WorkflowKit

/// Randomly damaged fixture files never crash the loader, and every problem is reported as a
/// diagnostic located inside the file.
@Suite("Loading fuzz", .onThreadOfItsOwn)
struct LoadingFuzzTests {
    static let seed: UInt64 = 0x5EED_F00D_2024
    static let iterations = 10_000

    /// Text inserted by mutations: YAML indicators, expression syntax, whitespace and quotes.
    static let insertions = [
        ":", "-", "${", "$${", "[", "]", "{", "}", "\t", "\"", "'", "#", " ", "\n", ",", "&a ", "*a", "!", "|", ">", "? ", ": ", "- ", "}}", "${}",
        ".", "[0]", "---\n", "~", "é"
    ]

    @Test func damagedFilesNeverCrashAndFailuresAreLocated() throws {
        let originals = try Fixtures.allNames.map { (name: $0, text: try Fixtures.text($0)) }
        var generator = SeededRandomNumberGenerator(seed: Self.seed)
        var failures = 0
        var loaded = 0
        var badLocations: [String] = []
        for iteration in 0..<Self.iterations {
            let original = originals[Int.random(in: 0..<originals.count, using: &generator)]
            var text = original.text
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                text = Self.mutate(text, using: &generator)
            }
            let fileName = "fuzz/\(original.name)-\(iteration).yaml"
            do {
                _ = try WorkflowLoader.load(text: text, fileName: fileName)
                loaded += 1
            } catch {
                failures += 1
                #expect(!error.diagnostics.isEmpty)
                _ = error.rendered()
                for diagnostic in error.diagnostics {
                    if let problem = Self.problem(with: diagnostic, in: text, fileName: fileName), badLocations.count < 10 {
                        badLocations.append("iteration \(iteration): \(problem)\n--- text ---\n\(text)")
                    }
                }
            }
        }
        #expect(badLocations.isEmpty, "\(badLocations.joined(separator: "\n\n"))")
        #expect(failures + loaded == Self.iterations)
        #expect(failures > Self.iterations / 2, "most damaged files should fail to load")
        #expect(loaded > 0, "some damage is harmless (in comments or text)")
    }

    /// Texts assembled from YAML and workflow fragments at random, unrelated to any fixture.
    @Test func randomFragmentsNeverCrash() {
        let fragments = [
            "steps:", "\n", "  ", "- ", "show: ", "perform: A.B", "with:", "{", "}", "[", "]", ", ", ": ", "${", "}",
            "${a.b[0]}", "\"", "'", "\\", "|", ">-", "&x ", "*x", "!!str ", "!t ", "? ", "#", "---", "...", "\t",
            "id: a", "if:", "then:", "value: 1", "equalTo: ", "~", "é", "\u{1}", "\r\n", "%YAML 1.2", "@", "`"
        ]
        var generator = SeededRandomNumberGenerator(seed: Self.seed ^ 0xFF)
        for iteration in 0..<3_000 {
            let text = (0..<Int.random(in: 0...40, using: &generator))
                .map { _ in fragments[Int.random(in: 0..<fragments.count, using: &generator)] }
                .joined()
            let fileName = "random-\(iteration).yaml"
            do {
                _ = try WorkflowLoader.load(text: text, fileName: fileName)
            } catch {
                _ = error.rendered()
                for diagnostic in error.diagnostics {
                    let problem = Self.problem(with: diagnostic, in: text.replacingOccurrences(of: "\r\n", with: "\n"), fileName: fileName)
                    #expect(problem == nil, "\(text.debugDescription)")
                }
            }
        }
    }

    /// Why a diagnostic is not properly located, or `nil` when it is.
    static func problem(with diagnostic: Diagnostic, in text: String, fileName: String) -> String? {
        let location = diagnostic.location
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if text.hasSuffix("\n") { lines.removeLast() }
        if lines.isEmpty { lines = [""] }
        guard location.file == fileName else { return "wrong file in \(diagnostic)" }
        guard !diagnostic.message.isEmpty else { return "empty message at \(location)" }
        guard location.line >= 1, location.line <= lines.count else { return "line outside the file: \(diagnostic)" }
        let lastColumn = lines[location.line - 1].unicodeScalars.count + 1
        guard location.column >= 1, location.column <= lastColumn else { return "column outside line: \(diagnostic)" }
        if let length = location.length, length < 1 || location.column + length - 1 > lastColumn {
            return "length past the line: \(diagnostic) length \(length)"
        }
        return nil
    }

    static func mutate(_ text: String, using generator: inout SeededRandomNumberGenerator) -> String {
        var scalars = Array(text.unicodeScalars)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let position = scalars.isEmpty ? 0 : Int.random(in: 0..<scalars.count, using: &generator)
        let line = lines.isEmpty ? 0 : Int.random(in: 0..<lines.count, using: &generator)
        switch Int.random(in: 0..<8, using: &generator) {
        case 0 where !scalars.isEmpty:
            scalars.remove(at: position)
        case 1 where !scalars.isEmpty:
            scalars.insert(scalars[position], at: position)
        case 2 where scalars.count > 1:
            let next = min(position + 1, scalars.count - 1)
            scalars.swapAt(position, next)
        case 3 where !lines.isEmpty:
            lines.remove(at: line)
            return lines.joined(separator: "\n")
        case 4 where !lines.isEmpty:
            lines.insert(lines[line], at: line)
            return lines.joined(separator: "\n")
        case 5 where lines.count > 1:
            lines.swapAt(line, Int.random(in: 0..<lines.count, using: &generator))
            return lines.joined(separator: "\n")
        default:
            let insertion = insertions[Int.random(in: 0..<insertions.count, using: &generator)]
            let at = scalars.isEmpty ? 0 : Int.random(in: 0...scalars.count, using: &generator)
            scalars.insert(contentsOf: insertion.unicodeScalars, at: at)
        }
        var mutated = ""
        mutated.unicodeScalars.append(contentsOf: scalars)
        return mutated
    }
}
