import Clockwork
import Foundation
import IntentKit
import Metrics

/// The metric handles of one extension's calls (``ExtensionMetric``), made once with the factory
/// in force when its host was created.
struct ExtensionMetrics: Sendable {
    private let calls: [ExtensionMetric.CallOutcome: Counter]
    private let duration: CoreMetrics.Timer
    private let clock: any EngineClock

    init(extension name: String, clock: any EngineClock = .system, factory: any MetricsFactory = MetricsSystem.factory) {
        self.clock = clock
        let named = (ExtensionMetric.Label.extension.rawValue, name)
        calls = Dictionary(
            uniqueKeysWithValues: ExtensionMetric.CallOutcome.allCases.map { outcome in
                (
                    outcome,
                    Counter(
                        label: ExtensionMetric.calls.rawValue, dimensions: [named, (ExtensionMetric.Label.outcome.rawValue, outcome.rawValue)],
                        factory: factory)
                )
            })
        duration = CoreMetrics.Timer(label: ExtensionMetric.callDuration.rawValue, dimensions: [named], factory: factory)
    }

    /// Performs a call, counting how it ended and timing it.
    func measure<Result: Sendable>(_ call: () async throws -> Result) async throws -> Result {
        let started = clock.now()
        do {
            let result = try await call()
            record(.succeeded, since: started)
            return result
        } catch {
            record(Self.outcome(of: error), since: started)
            throw error
        }
    }

    private func record(_ outcome: ExtensionMetric.CallOutcome, since started: Date) {
        duration.record(duration: clock.elapsed(since: started))
        calls[outcome]?.increment()
    }

    /// The outcome a call's error stands for.
    static func outcome(of error: any Error) -> ExtensionMetric.CallOutcome {
        switch error {
        case is CancellationError: return .cancelled
        case let error as ExtensionError:
            switch error.withoutStandardError {
            case .failed, .errorResponse: return .failed
            case .withStandardError: return .failed  // unwrapped above: not reached
            case .cannotStart, .exited, .protocolViolation, .unsupportedVersion, .unresponsive, .noAnswer, .stopped: return .unavailable
            }
        default:
            // An interaction error: the intent asked what nobody could answer.
            return .failed
        }
    }
}
