import BuiltInApps
import Foundation
import IntentKit

/// Measures `Shell.RunCommand` performed through the ``IntentPerformer`` against the same
/// process runner called directly, on `/bin/true`: what the intent adds to a spawn.
enum ShellBenchmark {
    static func run(arguments: [String]) async throws {
        let calls = arguments.first.flatMap(Int.init) ?? 2_000
        let performer = IntentPerformer(catalog: IntentCatalog(apps: [ShellApp.app]))
        let command: [String: IntentValue] = ["executable": .string("/bin/true")]
        let clock = ContinuousClock()
        // Both paths once before timing: the app's set-up, the first spawn's page faults.
        _ = try await performer.perform("Shell.RunCommand", arguments: command)
        _ = try await ChildProcess(executable: "/bin/true").run()

        var direct = Duration.zero
        var intent = Duration.zero
        // Alternating rounds, so that a slower moment of the machine falls on both sides.
        let rounds = 10
        for _ in 0..<rounds {
            direct += try await clock.measure {
                for _ in 0..<calls / rounds {
                    let outcome = try await ChildProcess(executable: "/bin/true").run()
                    guard outcome.termination == .exited(0) else { fatalError("/bin/true failed: \(outcome.termination)") }
                }
            }
            intent += try await clock.measure {
                for _ in 0..<calls / rounds {
                    _ = try await performer.perform("Shell.RunCommand", arguments: command)
                }
            }
        }
        let measured = Double(calls / rounds * rounds)
        print("Shell.RunCommand /bin/true, \(Int(measured)) calls each")
        print(String(format: "    direct spawn loop (ChildProcess.run): %.1f µs per call", WorkflowBenchmark.seconds(direct) / measured * 1e6))
        print(String(format: "    Shell.RunCommand through IntentPerformer: %.1f µs per call", WorkflowBenchmark.seconds(intent) / measured * 1e6))
        print(String(format: "    ratio intent / direct: %.2f× (goal ≤ 1.5×)", WorkflowBenchmark.seconds(intent) / WorkflowBenchmark.seconds(direct)))
    }
}
