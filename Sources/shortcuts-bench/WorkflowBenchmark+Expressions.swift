import Foundation
import IntentKit
import ValueFunctions
import WorkflowKit

extension WorkflowBenchmark {
    /// (f) `${a + b * 2}` and a chain of ten functions, evaluated once per call with a new
    /// value of `a`, vs. the same work written by hand on the same values (unwrapping the
    /// values, calling the same ValueFunctions and wrapping the result).
    static func expressions(calls: Int) throws {
        let clock = ContinuousClock()
        let words = IntentValue.string("pear, apple,fig ,apple, kiwi,banana")

        var arithmetic = try StandaloneExpression("${a + b * 2}")
        arithmetic.set("b", to: .int(3))
        var arithmeticSum = 0
        let arithmeticEngine = try clock.measure {
            for call in 0..<calls {
                arithmetic.set("a", to: .int(call))
                if case .int(let value) = try arithmetic.evaluate() { arithmeticSum &+= value }
            }
        }
        var handSum = 0
        let variables: [String: IntentValue] = ["b": .int(3)]
        let arithmeticHand = clock.measure {
            for call in 0..<calls {
                var scope = variables
                scope["a"] = .int(call)
                guard case .int(let a)? = scope["a"], case .int(let b)? = scope["b"] else { continue }
                if case .int(let value) = IntentValue.int(a + b * 2) { handSum &+= value }
            }
        }

        var chain = try StandaloneExpression(
            #"${length(upper(trim(replace(join(sort(unique(split(words, ","))), "-"), "a", "o")))) + abs(round(a))}"#)
        chain.set("words", to: words)
        var chainSum = 0
        let chainEngine = try clock.measure {
            for call in 0..<calls / 10 {
                chain.set("a", to: .double(Double(call) / 3))
                if case .int(let value) = try chain.evaluate() { chainSum &+= value }
            }
        }
        var chainHandSum = 0
        let chainHand = try clock.measure {
            for call in 0..<calls / 10 {
                var scope: [String: IntentValue] = ["words": words]
                scope["a"] = .double(Double(call) / 3)
                guard case .string(let text)? = scope["words"], case .double(let a)? = scope["a"] else { continue }
                let pieces = try TextFunctions.split(text, by: .text(",")).map(IntentValue.string)
                let sorted = try ListFunctions.sort(try ListFunctions.unique(pieces))
                let joined = TextFunctions.join(sorted, separator: "-")
                let replaced = try TextFunctions.replace(joined, "a", with: "o")
                let length = TextFunctions.length(TextFunctions.changeCase(TextFunctions.trim(replaced), to: .upper))
                let rounded = MathFunctions.abs(MathFunctions.round(a))
                if case .int(let value) = IntentValue.int(length + Int(rounded)) { chainHandSum &+= value }
            }
        }
        print("(f) expressions evaluated per call")
        print(
            String(
                format: "    ${a + b * 2}, %d calls: %.0f ns/call vs. by hand %.0f ns/call, ratio %.1f× (goal ≤ 5×; checksums %ld = %ld)",
                calls, seconds(arithmeticEngine) * 1e9 / Double(calls), seconds(arithmeticHand) * 1e9 / Double(calls),
                seconds(arithmeticEngine) / seconds(arithmeticHand), arithmeticSum, handSum))
        print(
            String(
                format: "    ten-function chain, %d calls: %.0f ns/call vs. by hand %.0f ns/call, ratio %.1f× (goal ≤ 5×; checksums %ld = %ld)",
                calls / 10, seconds(chainEngine) * 1e9 / Double(calls / 10), seconds(chainHand) * 1e9 / Double(calls / 10),
                seconds(chainEngine) / seconds(chainHand), chainSum, chainHandSum))
    }
}
