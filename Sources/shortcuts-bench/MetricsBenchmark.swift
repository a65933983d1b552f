import Foundation
import IntentKit
import Metrics
import MetricsTestKit
import WorkflowKit

/// The cost of the engine's metrics (`WorkflowMetric`): the same runs and steps with
/// swift-metrics' no-op handler, the default, and with a factory that records every value
/// (MetricsTestKit's `TestMetrics`, which keeps each one with its time under a lock: dearer
/// than a Prometheus histogram), taking turns in one process; and a no-op metric call against
/// the step it is made for.
enum MetricsBenchmark {
    static func run(arguments: [String]) async throws {
        let iterations = arguments.first.flatMap(Int.init) ?? 200_000
        let runs = arguments.dropFirst().first.flatMap(Int.init) ?? 2_000
        let rounds = 10
        let catalog = IntentCatalog(apps: [IntentApp(name: "Bench", intents: [Increment.self])])
        let loop = try WorkflowLoader.load(
            text: """
                steps:
                  - repeat: { count: \(iterations) }
                    steps:
                      - perform: Bench.Increment
                        with: { value: "${index}" }
                """, fileName: "bench-metrics-loop.yaml")
        let short = try WorkflowLoader.load(
            text: """
                steps:
                  - set: n
                    to: 1
                  - perform: Bench.Increment
                    with: { value: "${n}" }
                  - show: "done"
                """, fileName: "bench-metrics-run.yaml")
        let clock = ContinuousClock()
        var best: [String: Duration] = [:]
        for round in 0..<rounds {
            // Taking turns, each first in every other round.
            let factories: [(String, any MetricsFactory)] = [("no-op", NOOPMetricsHandler.instance), ("recording", TestMetrics())]
            for (name, factory) in round.isMultiple(of: 2) ? factories : factories.reversed() {
                // The loop without a history (its 200,000 step records would cost more than the
                // steps); the short runs recorded in one.
                let (looping, runner, history) = try withMetricsFactory(factory) {
                    let history = try RunHistory(path: ":memory:")
                    return (
                        WorkflowRunner(catalog: catalog, secrets: nil), WorkflowRunner(catalog: catalog, history: history, secrets: nil), history
                    )
                }
                let steps = try await clock.measure { _ = try await looping.run(loop) }
                best["steps " + name] = min(best["steps " + name] ?? .seconds(1_000), steps)
                let recorded = try await clock.measure {
                    for _ in 0..<runs { _ = try await runner.run(short) }
                }
                best["runs " + name] = min(best["runs " + name] ?? .seconds(1_000), recorded)
                let counted = metricsRuns(factory)
                guard try history.recentRuns(limit: runs + 1).count == runs, counted == nil || counted == Int64(runs + 1) else {
                    throw BenchmarkFailure(message: "the runs were not all recorded and counted (\(counted ?? -1))")
                }
            }
        }
        let perStep = { (name: String) in WorkflowBenchmark.seconds(best["steps " + name]!) / Double(iterations) * 1e9 }
        let perRun = { (name: String) in WorkflowBenchmark.seconds(best["runs " + name]!) / Double(runs) * 1e6 }
        print(
            "(m) metrics: a repeat of \(iterations) trivial perform steps, and \(runs) runs of 3 steps recorded in an in-memory history, "
                + "best of \(rounds)")
        print(
            String(
                format: "    per step: no-op %.0f ns, recording %.0f ns: ratio %.3f", perStep("no-op"), perStep("recording"),
                perStep("recording") / perStep("no-op")))
        print(
            String(
                format: "    per run:  no-op %.1f µs, recording %.1f µs: ratio %.3f", perRun("no-op"), perRun("recording"),
                perRun("recording") / perRun("no-op")))

        // What the no-op handler costs a step: the call the engine makes per step, alone.
        let noop = RunMetrics(factory: NOOPMetricsHandler.instance)
        let calls = 10_000_000
        let call = clock.measure {
            for index in 0..<calls { noop.recordStepDuration(.nanoseconds(index), kind: "perform") }
        }
        let perCall = WorkflowBenchmark.seconds(call) / Double(calls) * 1e9
        print(String(format: "    a no-op step metric: %.2f ns, %.4f of a step", perCall, perCall / perStep("no-op")))
    }

    /// How many runs a recording factory counted, or `nil` for one that records nothing.
    private static func metricsRuns(_ factory: any MetricsFactory) -> Int64? {
        guard let metrics = factory as? TestMetrics else { return nil }
        return metrics.counterTotal(label: WorkflowMetric.runs.rawValue)
    }
}
