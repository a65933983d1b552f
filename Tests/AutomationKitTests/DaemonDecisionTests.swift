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

    @Test("A due time is claimed, waits for the daemon ranked before it, waits for the database, or starts a catch-up after a stall")
    func dueTimes() {
        let nine = now
        func decide(late seconds: TimeInterval, isDelayed: Bool = false, ranking: TimeInterval = 0, away: Bool = false) -> DueDecision {
            DueDecision(due: nine, isDelayed: isDelayed, now: nine.addingTimeInterval(seconds), rankingDelay: ranking, databaseIsAway: away)
        }
        #expect(decide(late: 0) == .claim)
        #expect(decide(late: 60) == .claim, "a minute late is late, not stalled")
        #expect(decide(late: 61) == .fellBehind)
        #expect(decide(late: 61, away: true) == .fellBehind, "a stall is planned by catchUp: even while the database is away")
        #expect(decide(late: 0, ranking: 0.5) == .waitForTurn(until: nine.addingTimeInterval(0.5)))
        #expect(decide(late: 0.5, ranking: 0.5) == .claim, "its turn came")
        #expect(decide(late: 0, ranking: 0.5, away: true) == .waitForTurn(until: nine.addingTimeInterval(0.5)))
        #expect(decide(late: 0.5, isDelayed: true, ranking: 0.5) == .claim, "a due time waits for its turn once")
        #expect(decide(late: 120, isDelayed: true) == .claim, "a due time that waited for its turn is not caught up")
        #expect(decide(late: 0, away: true) == .backlog)
        #expect(decide(late: 0.5, isDelayed: true, away: true) == .backlog)
    }

    @Test("A failed or timed-out attempt is tried again after the backoff while attempts remain; success and cancellation end the run")
    func attempts() {
        #expect(AttemptDecision(after: .failed("exit 1"), attempt: 1, of: 3, backoff: .seconds(30)) == .retry(after: .seconds(30)))
        #expect(AttemptDecision(after: .timedOut, attempt: 2, of: 3, backoff: nil) == .retry(after: nil))
        #expect(AttemptDecision(after: .failed("exit 1"), attempt: 3, of: 3, backoff: .seconds(30)) == .end(.failed))
        #expect(AttemptDecision(after: .timedOut, attempt: 1, of: 1, backoff: nil) == .end(.timedOut))
        #expect(AttemptDecision(after: .succeeded(.string("done")), attempt: 1, of: 3, backoff: .seconds(30)) == .end(.succeeded))
        #expect(AttemptDecision(after: .cancelled, attempt: 1, of: 3, backoff: .seconds(30)) == .end(.cancelled), "a cancelled run is not retried")
    }

    @Test("A lease is renewed every quarter of it, and others' claims are settled only after a whole lease held without a failed renewal")
    func leases() {
        let terms = LeaseTerms(duration: .seconds(10))
        #expect(terms.renewalInterval == 2.5)
        #expect(!terms.maySettleOthers(heldSince: nil, now: now), "renewals are failing")
        #expect(!terms.maySettleOthers(heldSince: now, now: now.addingTimeInterval(9.9)))
        #expect(terms.maySettleOthers(heldSince: now, now: now.addingTimeInterval(10)))
        #expect(LeaseTerms(duration: .milliseconds(500)).renewalInterval == 0.125)
    }
}
