import Foundation
import IntentKit
import SeededRandom
import ShortcutsSystemTestSupport
import Testing

@testable import WorkflowKit

/// Deep, long and randomly damaged expressions through loading, validation and a run: none
/// crashes, and each evaluates or stops at an error located inside the file; the errors of
/// expressions beyond ``ExpressionLimits`` name the limit.
@Suite("Expression fuzz", .onThreadOfItsOwn)
struct ExpressionFuzzTests {
    static let seed: UInt64 = 0xDEE9_C4A1_2025
    static let mutations = 3_000

    /// A construct that nests: its text with a given number of levels.
    struct Construct: Sendable {
        var name: String
        var levels: @Sendable (Int) -> String
    }

    /// Every construct of the language, written `n` levels deep (`n` ≥ 1).
    static let deepConstructs: [Construct] =
        ExpressionNode.BinaryOperator.allCases.map { op in
            let operand = op == .and || op == .or ? "t" : "a"
            return Construct(name: "chain of \(op.rawValue)") { n in Array(repeating: operand, count: n).joined(separator: " \(op.rawValue) ") }
        } + [
            Construct(name: "sums of products") { n in Array(repeating: "a * a", count: max(1, n - 1)).joined(separator: " + ") },
            Construct(name: "comparisons joined by &&") { n in Array(repeating: "a < 2", count: max(1, n - 1)).joined(separator: " && ") },
            Construct(name: "!") { n in String(repeating: "!", count: n - 1) + "t" },
            Construct(name: "- (unary)") { n in String(repeating: "-", count: n - 1) + "a" },
            Construct(name: "parentheses") { n in String(repeating: "(", count: n - 1) + "a" + String(repeating: ")", count: n - 1) },
            Construct(name: "member path") { n in "d" + String(repeating: ".k", count: n - 1) },
            Construct(name: "null-safe members") { n in "d" + String(repeating: "?.k", count: n - 1) },
            Construct(name: "index path") { n in "l" + String(repeating: "[0]", count: n - 1) },
            Construct(name: "indexes of a literal") { n in "[0]" + String(repeating: "[0]", count: max(0, n - 2)) },
            Construct(name: "index inside index") { n in String(repeating: "l[", count: n - 1) + "0" + String(repeating: "]", count: n - 1) },
            Construct(name: "call inside call") { n in String(repeating: "abs(", count: n - 1) + "a" + String(repeating: ")", count: n - 1) },
            Construct(name: "list inside list") { n in String(repeating: "[", count: n - 1) + "a" + String(repeating: "]", count: n - 1) },
            Construct(name: "dictionary inside dictionary") { n in
                String(repeating: #"{"k": "#, count: n - 1) + "a" + String(repeating: "}", count: n - 1)
            },
            Construct(name: "?: in the otherwise branch") { n in String(repeating: "t ? a : ", count: n - 1) + "a" },
            Construct(name: "?: in the then branch") { n in String(repeating: "t ? ", count: n - 1) + "a" + String(repeating: " : a", count: n - 1) },
            // Two levels for each: the parentheses and the `?:`.
            Construct(name: "?: in the condition") { n in
                String(repeating: "(", count: (n - 1) / 2) + "t" + String(repeating: " ? t : t)", count: (n - 1) / 2)
            }
        ]

    /// Constructs that grow wide, not deep: `n` elements.
    static let wideConstructs: [Construct] = [
        Construct(name: "list of many elements") { n in "[" + Array(repeating: "a", count: n).joined(separator: ", ") + "]" },
        Construct(name: "call of many arguments") { n in "max(" + Array(repeating: "a", count: n).joined(separator: ", ") + ")" },
        Construct(name: "dictionary of many keys") { n in "{" + (0..<n).map { #""k\#($0)": a"# }.joined(separator: ", ") + "}" },
        Construct(name: "long text") { n in "\"" + String(repeating: "é", count: 2 * n) + "\"" }
    ]

    static let depths = [1, 2, 3, 10, 32, 63, 64, 65, 66, 100, 1_000, 4_000]
    static let widths = [1, 10, 1_000, 10_000, 25_000]

    /// The workflow that outputs a scalar, with the variables the constructs use; a
    /// `condition` also takes the scalar as an `if:`.
    static func workflow(_ scalar: String, condition: Bool) -> String {
        let quoted = scalar.replacingOccurrences(of: "'", with: "''")
        return """
            steps:
              - set: a
                to: 1
              - set: t
                to: true
              - set: l
                to: [0]
              - set: d
                to: { k: 1 }
            \(condition ? "  - if: '\(quoted)'\n    then: [ { set: c, to: 1 } ]\n" : "")output: '\(quoted)'

            """
    }

    static let validator = WorkflowValidator(catalog: IntentCatalog(apps: []), isHeadless: true)
    static let runner = WorkflowRunner(catalog: IntentCatalog(apps: []))

    /// What became of one expression.
    enum Outcome: Equatable {
        case evaluated
        case loadingError, validationError, runError
    }

    /// Loads, validates and runs the workflow of one `${…}`, and reports any diagnostic that
    /// is not located inside the file.
    static func outcome(of expression: String, condition: Bool, badLocations: inout [String]) async -> (Outcome, [Diagnostic]) {
        let text = workflow(expression, condition: condition)
        let fileName = "expressions.yaml"
        var diagnostics: [Diagnostic] = []
        var outcome = Outcome.evaluated
        do {
            let workflow = try WorkflowLoader.load(text: text, fileName: fileName)
            let checked = validator.check(workflow)
            diagnostics = checked.diagnostics
            _ = DiagnosticRenderer(sources: checked.sources).render(diagnostics)
            if diagnostics.isEmpty {
                do {
                    _ = try await runner.run(workflow)
                } catch let error as WorkflowRunError {
                    diagnostics = [error.diagnostic]
                    outcome = .runError
                } catch {
                    badLocations.append("'\(expression.prefix(80))': not a located error: \(error)")
                    outcome = .runError
                }
            } else {
                outcome = .validationError
            }
        } catch {
            diagnostics = error.diagnostics
            _ = error.rendered()
            outcome = .loadingError
        }
        for diagnostic in diagnostics {
            if let problem = LoadingFuzzTests.problem(with: diagnostic, in: text, fileName: fileName), badLocations.count < 10 {
                badLocations.append("'\(expression.prefix(80))': \(problem)")
            }
        }
        return (outcome, diagnostics)
    }

    static func namesALimit(_ diagnostics: [Diagnostic]) -> Bool {
        diagnostics.contains {
            ($0.message.hasSuffix("nested too deeply: more than \(ExpressionLimits.maximumDepth) levels")
                || $0.message.hasPrefix("the expression is too long")) && $0.help == ExpressionLimits.help
        }
    }

    static func length(_ expression: String) -> Int { "${\(expression)}".utf8.count }

    @Test func deepAndWideConstructsEvaluateOrNameTheLimit() async {
        var badLocations: [String] = []
        var wrongOutcomes: [String] = []
        var cases = 0
        var evaluated = 0
        for (constructs, sizes, isDeep) in [(Self.deepConstructs, Self.depths, true), (Self.wideConstructs, Self.widths, false)] {
            for construct in constructs {
                for size in sizes {
                    let expression = construct.levels(size)
                    let (outcome, diagnostics) = await Self.outcome(of: "${\(expression)}", condition: false, badLocations: &badLocations)
                    cases += 1
                    if outcome == .evaluated { evaluated += 1 }
                    let beyond = (isDeep && size > ExpressionLimits.maximumDepth) || Self.length(expression) > ExpressionLimits.maximumLength
                    if beyond != Self.namesALimit(diagnostics) || (beyond && outcome != .loadingError) {
                        wrongOutcomes.append("\(construct.name) × \(size): \(outcome), \(diagnostics.map(summary))")
                    }
                }
            }
        }
        #expect(badLocations.isEmpty, "\(badLocations.joined(separator: "\n"))")
        #expect(wrongOutcomes.isEmpty, "\(wrongOutcomes.joined(separator: "\n"))")
        #expect(cases == Self.deepConstructs.count * Self.depths.count + Self.wideConstructs.count * Self.widths.count)
        #expect(evaluated > cases / 3, "constructs within the limits evaluate")
    }

    /// Pieces inserted into expressions, and repeated to make them deep or long.
    static let pieces = ValidationFuzzTests.pieces + ["a", "t", "l", "d", "abs(", "[", "{\"k\": ", "t ? ", " : a", ".k", "?.k", "[0]", " + a"]

    /// What goes before and after an expression to nest it one level deeper.
    static let wrappers = [
        ("(", ")"), ("abs(", ")"), ("max(a, ", ")"), ("[", "][0]"), ("[", "]"), (#"{"k": "#, "}"), ("-", ""), ("!", ""), ("t ? ", " : a"),
        ("t ? a : ", ""), ("a + ", ""), ("", " + a"), ("", " * a"), ("", " == a"), ("", " && t"), ("", " ?? a"), ("a ?? ", ""), ("", ".k"),
        ("", "?.k"), ("", "[0]"), ("l[", "]")
    ]

    @Test func damagedExpressionsNeverCrashAndEveryErrorIsLocated() async {
        var generator = SeededRandomNumberGenerator(seed: Self.seed)
        let originals =
            ValidationFuzzTests.expressions.map { String($0.dropFirst(2).dropLast()) }
            + Self.deepConstructs.map { $0.levels(Int.random(in: 1...70, using: &generator)) }
        var badLocations: [String] = []
        var counts: [Outcome: Int] = [:]
        var beyondLimits = 0
        for _ in 0..<Self.mutations {
            var expression = Array(originals[Int.random(in: 0..<originals.count, using: &generator)].unicodeScalars)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0...expression.count, using: &generator)
                switch Int.random(in: 0..<5, using: &generator) {
                case 0:
                    expression.insert(contentsOf: Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &generator)].unicodeScalars, at: at)
                case 1 where at < expression.count:
                    expression.remove(at: at)
                case 2:
                    // A piece many times over: a deep or long expression, mostly unbalanced.
                    let piece = Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &generator)]
                    let times = Int.random(in: 2...(Bool.random(using: &generator) ? 80 : 500), using: &generator)
                    expression.insert(contentsOf: String(repeating: piece, count: times).unicodeScalars, at: at)
                case 3:
                    // The whole expression inside a construct many times over: deep and balanced.
                    let (before, after) = Self.wrappers[Int.random(in: 0..<Self.wrappers.count, using: &generator)]
                    let times = Int.random(in: 1...80, using: &generator)
                    expression =
                        Array(String(repeating: before, count: times).unicodeScalars) + expression
                        + Array(String(repeating: after, count: times).unicodeScalars)
                default:
                    let other = Int.random(in: 0...expression.count, using: &generator)
                    if at < expression.count, other < expression.count { expression.swapAt(at, other) }
                }
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: expression)
            let condition = Bool.random(using: &generator)
            let (outcome, diagnostics) = await Self.outcome(of: "${\(text)}", condition: condition, badLocations: &badLocations)
            if Self.namesALimit(diagnostics) { beyondLimits += 1 }
            counts[outcome, default: 0] += 1
        }
        #expect(badLocations.isEmpty, "\(badLocations.joined(separator: "\n"))")
        print("COUNTS \(counts)")
        #expect(counts.values.reduce(0, +) == Self.mutations)
        #expect(counts[.evaluated, default: 0] > Self.mutations / 50, "some damaged expressions are still valid and run")
        #expect(counts[.loadingError, default: 0] > Self.mutations / 4, "most damaged expressions are reported")
        #expect(beyondLimits > Self.mutations / 20, "many damaged expressions are deeper or longer than the limits")
    }

    /// What a check on another thread found; the semaphore that waits for the thread orders the accesses.
    final class Findings: @unchecked Sendable {
        var problems: [String] = []
        var evaluated = 0
    }

    /// Runs `work` on a thread with a 2 MiB stack: a quarter of the 8 MiB a Linux thread gets by
    /// default, and more than the deepest expressions need in a debug build (about 1.2 MiB).
    static func onSmallStack(_ work: @escaping @Sendable () -> Void) {
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            work()
            finished.signal()
        }
        thread.stackSize = 2 << 20
        thread.start()
        finished.wait()
    }

    @Test func theDeepestExpressionsParseCheckAndEvaluateOnASmallStack() throws {
        let findings = Findings()
        for construct in Self.deepConstructs {
            let scalar = "${" + construct.levels(ExpressionLimits.maximumDepth) + "}"
            let workflow = try WorkflowLoader.load(text: Self.workflow(scalar, condition: true), fileName: "deep.yaml")
            Self.onSmallStack {
                do {
                    _ = try Template(parsing: scalar, at: SourceLocation(file: "deep.yaml", line: 1, column: 1))
                    _ = WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow)
                    var expression = try StandaloneExpression(scalar)
                    for (name, value) in [("a", IntentValue.int(1)), ("t", .bool(true)), ("l", .list([.int(0)])), ("d", .dictionary(["k": .int(1)]))]
                    {
                        expression.set(name, to: value)
                    }
                    _ = try expression.evaluate()
                    findings.evaluated += 1
                } catch let error as WorkflowRunError {
                    if LoadingFuzzTests.problem(with: error.diagnostic, in: scalar, fileName: "expression") != nil {
                        findings.problems.append("\(construct.name): \(error.diagnostic)")
                    }
                } catch {
                    findings.problems.append("\(construct.name): \(error)")
                }
            }
        }
        #expect(findings.problems.isEmpty, "\(findings.problems.joined(separator: "\n"))")
        #expect(findings.evaluated > Self.deepConstructs.count / 2)
    }
}
