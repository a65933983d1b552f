import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// An intent that records what it did, then succeeds or fails as asked.
struct RecordsDetails: AppIntent {
    static let title: LocalizedStringResource = "Records Details"
    @Parameter(title: "Fails") var fails: Bool

    func perform() async throws -> some IntentResult & ReturnsValue<String> {
        IntentExecution.current.record(detail: "status", value: fails ? 2 : 0)
        IntentExecution.current.record(detail: "stderr", value: "last line")
        if fails { throw Failure() }
        return .result(value: "done")
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "it failed" }
    }
}

/// Details an intent records reach the performer's outcome, the step's trace and the run
/// history, when the intent fails too.
@Suite("Step details")
struct StepDetailsTests {
    let catalog = IntentCatalog(apps: [IntentApp(name: "Detail", intents: [RecordsDetails.self])])

    @Test func theOutcomeHasTheDetailsAndALogKeepsThemAfterAFailure() async throws {
        let outcome = try await IntentPerformer(catalog: catalog).perform("Detail.RecordsDetails", arguments: ["fails": .bool(false)])
        #expect(outcome.details == ["status": .int(0), "stderr": .string("last line")])
        var performer = IntentPerformer(catalog: catalog)
        let log = IntentDetailLog()
        performer.detailLog = log
        await #expect(throws: IntentError.self) { try await performer.perform("Detail.RecordsDetails", arguments: ["fails": .bool(true)]) }
        #expect(log.details["status"] == .int(2))
        // Outside a performer, recording does nothing.
        IntentExecution.current.record(detail: "ignored", value: 1)
    }

    @Test func theTraceAndTheHistoryKeepTheDetailsOfSucceededAndFailedSteps() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("runs-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let history = try RunHistory(path: path)
        let runner = WorkflowRunner(catalog: catalog, history: history)
        let text = """
            steps:
              - perform: Detail.RecordsDetails
                with: { fails: false }
              - perform: Detail.RecordsDetails
                with: { fails: true }
            """
        let workflow = try WorkflowLoader.load(text: text, fileName: "details.yaml")
        await #expect(throws: WorkflowRunError.self) { try await runner.run(workflow) }
        let run = try #require(try history.recentRuns(limit: 1).first)
        let steps = try history.run(matching: run.id).steps
        #expect(steps.count == 2)
        let details = try steps.map { step in
            let text = try #require(step.details)
            return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }
        #expect(details[0]["status"] as? Int == 0 && details[1]["status"] as? Int == 2)
        #expect(details[1]["stderr"] as? String == "last line")
        #expect(steps[1].error?.contains("it failed") == true)
    }

    @Test func aStepWithoutDetailsStoresNone() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("runs-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let history = try RunHistory(path: path)
        let workflow = try WorkflowLoader.load(text: "steps:\n  - show: hello\n", fileName: "plain.yaml")
        let result = try await WorkflowRunner(catalog: catalog, history: history).run(workflow)
        #expect(result.steps.first?.details.isEmpty == true)
        #expect(try history.run(matching: try #require(result.runID)).steps.first?.details == nil)
    }
}
