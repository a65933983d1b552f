import Foundation
import IntentKit
import Metrics
import MetricsTestKit
import ShortcutsSystemTestSupport
import Testing

@testable import IntentExtensions

/// The metrics of real calls to the test extension, with a `TestMetrics` factory bound by
/// `withMetricsFactory` while the host is created.
@Suite(
    .enabled(if: SystemComponents.available(TestExtension.python), "needs python3 for the test extension"),
    .timeLimit(.minutes(1)))
struct ExtensionMetricsTests {
    @Test func callsAreCountedByOutcomeAndTimed() async throws {
        let executable = try TestExtension.install()
        let handshake = try await ExtensionHandshake.perform(name: "Tester", executable: executable.path)
        let metrics = TestMetrics()
        let host = withMetricsFactory(metrics) {
            ExtensionHost(
                name: "Tester", executable: executable.path, metadata: handshake.metadata,
                configuration: ExtensionHost.Configuration(cancellationGrace: .milliseconds(300)))
        }
        func perform(_ intent: String, _ text: String? = nil) async throws -> HostedIntentResult {
            try await host.perform(
                HostedIntentRequest(
                    app: "Tester", intent: intent, arguments: text.map { ["text": .string($0)] } ?? [:], locale: "en",
                    interaction: NoInteraction()))
        }
        func calls(_ outcome: ExtensionMetric.CallOutcome) -> Int64 {
            metrics.counterTotal(label: ExtensionMetric.calls.rawValue, dimensions: [("extension", "Tester"), ("outcome", outcome.rawValue)])
        }

        #expect(try await perform("Echo", "hello").value == .string("hello"))
        let items = try await host.entities(HostedEntityRequest(app: "Tester", entity: "Item", query: .identifiers(["2"]), locale: "en"))
        #expect(items.contains { $0.identifier == "2" })
        await #expect(throws: (any Error).self) { try await perform("Ask") }
        let slow = Task { try await perform("Slow", "30") }
        #expect(try await TestExtension.waitUntilPerforming("Slow", beside: executable))
        slow.cancel()
        await #expect(throws: CancellationError.self) { try await slow.value }
        await #expect(throws: ExtensionError.self) { try await perform("Exit") }
        await host.stop()

        #expect(calls(.succeeded) == 2)
        #expect(calls(.failed) == 1)
        #expect(calls(.cancelled) == 1)
        #expect(calls(.unavailable) == 1)
        let durations = try metrics.expectTimer(ExtensionMetric.callDuration.rawValue, [("extension", "Tester")]).values
        #expect(durations.count == 5)
        // The cancelled call waited about 300 ms before it was cancelled.
        #expect(durations.contains { $0 >= 250_000_000 })
    }
}
