import SeededRandom
import ShortcutsSystemTestSupport
import Testing

@testable import WorkflowKit

/// Where each `${` closes is read in one pass: at the `}` a scan forward from it finds, so
/// that a file full of unclosed `${` loads in time proportional to its length.
@Suite("Closing braces")
struct ClosingBracesTests {
    /// A scan forward from `start` to `end`: braces balance, braces in quoted text do not count.
    static func scannedClosingBrace(in scalars: [Unicode.Scalar], from start: Int, to end: Int) -> Int? {
        var depth = 0
        var quote: Unicode.Scalar?
        var index = start
        while index < end {
            let scalar = scalars[index]
            if let open = quote {
                if scalar == "\\" {
                    index += 1
                } else if scalar == open {
                    quote = nil
                }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == "{" {
                depth += 1
            } else if scalar == "}" {
                if depth == 0 { return index }
                depth -= 1
            }
            index += 1
        }
        return nil
    }

    @Test func everyOffsetClosesWhereAScanFromItCloses() {
        var generator = SeededRandomNumberGenerator(seed: 0xB_ACE5)
        let alphabet: [Unicode.Scalar] = ["{", "}", "{", "}", "'", "\"", "\\", "$", "a", " "]
        var mismatches: [String] = []
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let scalars = (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" }
            let lower = Int.random(in: 0...length, using: &generator)
            let upper = Int.random(in: lower...length, using: &generator)
            let braces = ClosingBraces(scalars, in: lower..<upper)
            for offset in lower...upper {
                let read = braces.closingBrace(after: offset)
                let scanned = Self.scannedClosingBrace(in: scalars, from: offset, to: upper)
                if read != scanned {
                    var text = ""
                    text.unicodeScalars.append(contentsOf: scalars)
                    mismatches.append(
                        "\(text) in \(lower)..<\(upper) from \(offset): \(String(describing: read)), not \(String(describing: scanned))")
                }
            }
        }
        #expect(mismatches.prefix(5) == [])
    }

    @Test func bracesInsideBalanceAndQuotedBracesDoNotCount() {
        let scalars = Array(#"${a + {b}} ${'}' + "\"}"} ${c"#.unicodeScalars)
        let braces = ClosingBraces(scalars, in: 2..<scalars.count)
        #expect(braces.closingBrace(after: 2) == 9)
        #expect(braces.closingBrace(after: 13) == 24)
        #expect(braces.closingBrace(after: 28) == nil)
        #expect(braces.closingBrace(after: scalars.count) == nil)
    }

    @Test func eachUnclosedExpressionIsStillReportedWhereItStarts() {
        #expect(
            diagnostics(loading: "steps:\n  - show: ${ ${ ${\n").map(summary) == [
                "2:11: unterminated expression: '${' has no matching '}'"
            ])
        #expect(
            diagnostics(loading: "steps:\n" + String(repeating: "  - show: text ${a\n", count: 3)).map(summary) == [
                "2:16: unterminated expression: '${' has no matching '}'", "3:16: unterminated expression: '${' has no matching '}'",
                "4:16: unterminated expression: '${' has no matching '}'"
            ])
        #expect(
            diagnostics(loading: "steps:\n  - show: ${{}${{}\n").map(summary) == [
                "2:14: invalid expression '${{}': expected a key in quotes", "2:18: invalid expression '${{}': expected a key in quotes"
            ])
    }

    @Test func anExpressionAfterAnUnclosedOneOnItsLineIsStillShieldedFromYAML() throws {
        let workflow = try WorkflowLoader.load(text: "steps:\n  - show: [ \"$${\", ${ {\"k\": [1]}.k } ]\n", fileName: "a.yaml")
        guard case .show(let show) = workflow.steps.first?.kind, case .list(let elements, _) = show.value else {
            Issue.record("expected a list")
            return
        }
        #expect(elements.first?.literal?.text == "${")
        #expect(elements.last?.expression?.tree != nil)
    }

    /// Files whose every `${` is left open, in the three shapes that once made loading quadratic.
    enum Shape: CaseIterable {
        /// Many in one scalar: the YAML pre-pass read to the end of the file from each.
        case oneScalar
        /// One in each of many scalars: the same, across lines.
        case manyScalars
        /// `${{}` again and again: each `}` closes the `{` before it, so every `${` read to the end of its scalar.
        case nestedBraces

        func text(count: Int) -> String {
            switch self {
            case .oneScalar: "steps:\n  - show: " + String(repeating: "${ ", count: count) + "\n"
            case .manyScalars: "steps:\n" + String(repeating: "  - show: text ${a\n", count: count)
            case .nestedBraces: "steps:\n  - show: " + String(repeating: "${{}", count: count) + "\n"
            }
        }
    }

    @Test(.serialized, arguments: Shape.allCases)
    func loadingUnclosedExpressionsTakesTimeInProportionToTheFile(shape: Shape) async {
        let (small, large) = (shape.text(count: 20_000), shape.text(count: 80_000))
        let growth = await GrowthRatio.measure(small: { _ = diagnostics(loading: small) }, large: { _ = diagnostics(loading: large) })
        // Four times the text: four times the time when linear, sixteen when quadratic.
        #expect(growth.ratio < 8, "20,000 against 80,000: \(growth)")
    }
}
