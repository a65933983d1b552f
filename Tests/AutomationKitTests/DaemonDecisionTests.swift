import Foundation
import IntentKit
import Testing
import WorkflowKit

@testable import AutomationKit

/// The daemon's decisions as values, checked with plain values: no daemon, no store, no clock.
@Suite("Daemon decisions")
struct DaemonDecisionTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func claim(_ status: Claim.Status, runID: String? = "run-1", id: Int64? = 7) -> Claim {
        Claim(
            id: id, automationKey: "/srv/Workflows/backup.yaml", dueTime: 1_799_999_000, status: status, runID: runID, daemonID: "dead",
            isCatchUp: false, attempts: 2, claimedAt: 1_799_999_000, startedAt: 1_799_999_001, endedAt: nil, note: nil)
    }

    private func run(_ status: RunHistory.Status, endedAt: Date? = Date(timeIntervalSince1970: 1_799_999_100)) -> RunHistory.Run {
        RunHistory.Run(
            id: "run-1", workflow: "backup.yaml", name: "backup", trigger: "automation",
            startedAt: Date(timeIntervalSince1970: 1_799_999_001), endedAt: endedAt, status: status, output: nil, error: nil)
    }

    @Test("A running claim whose run ended takes the run's status and times")
    func endedRun() {
        for (status, expected) in [(RunHistory.Status.succeeded, Claim.Status.succeeded), (.cancelled, .cancelled), (.failed, .failed)] {
            let settled = ClaimSettlement(claim(.running), run: run(status), now: now, by: "the daemon with pid 42")
            #expect(
                settled
                    == .ended(
                        ClaimEnding(
                            id: 7, status: expected, note: "recorded from the run history after the daemon with pid 42 stopped", runID: nil,
                            attempts: 2, startedAt: Date(timeIntervalSince1970: 1_799_999_001),
                            endedAt: Date(timeIntervalSince1970: 1_799_999_100))))
        }
        guard case .ended(let ending) = ClaimSettlement(claim(.running), run: run(.succeeded, endedAt: nil), now: now, by: "it") else {
            Issue.record("an ended run without an end time still ends the claim")
            return
        }
        #expect(ending.endedAt == now)
    }

    @Test("A queued claim, a run still running or interrupted, or no run at all is interrupted")
    func interrupted() {
        #expect(ClaimSettlement(claim(.queued), run: nil, now: now, by: "it") == .interrupted)
        #expect(ClaimSettlement(claim(.queued), run: run(.succeeded), now: now, by: "it") == .interrupted, "a queued claim never ran")
        #expect(ClaimSettlement(claim(.running), run: nil, now: now, by: "it") == .interrupted, "its run was never recorded")
        #expect(ClaimSettlement(claim(.running), run: run(.running), now: now, by: "it") == .interrupted)
        #expect(ClaimSettlement(claim(.running), run: run(.interrupted), now: now, by: "it") == .interrupted)
        #expect(ClaimSettlement(claim(.running, runID: nil), run: run(.succeeded), now: now, by: "it") == .interrupted)
        #expect(ClaimSettlement(claim(.running, id: nil), run: run(.succeeded), now: now, by: "it") == .interrupted)
    }

    @Test("The daemon's first line counts what runs on a schedule, on file events and on webhooks, apart")
    func startSummary() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("summary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = [
            "report.yaml": "automation: { schedule: '0 9 * * 1-5' }\nsteps: [ { comment: report } ]\n",
            "backup.yaml": "automation: { schedule: '@daily', watch: { path: inbox } }\nsteps: [ { comment: backup } ]\n",
            "sort.yaml": "automation: { watch: { path: inbox } }\nsteps: [ { comment: sort } ]\n",
            "hook.yaml": "automation: { webhook: deploy }\nsteps: [ { comment: deploy } ]\n",
            "off.yaml": "automation: { schedule: '@hourly', enabled: false }\nsteps: [ { comment: off } ]\n",
            "broken.yaml": "automation: { schedule: 'every day' }\nsteps: [ { comment: broken } ]\n"
        ]
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let loaded = AutomationFolder.load(folder, catalog: IntentCatalog(apps: []))
        #expect(
            DaemonEngine.summary(of: loaded.automations, in: "Workflows", problems: loaded.problems.count)
                == "scheduling 2 automations from Workflows (and 1 on file events, 1 on a webhook; 1 disabled); 1 file has errors and is not scheduled"
        )
        let one = loaded.automations.filter { $0.fileName.hasSuffix("report.yaml") }
        #expect(DaemonEngine.summary(of: one, in: "Workflows", problems: 0) == "scheduling 1 automation from Workflows")
    }
}
