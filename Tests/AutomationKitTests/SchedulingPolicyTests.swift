import Cron
import Foundation
import Testing
import WorkflowKit

@testable import AutomationKit

/// An instant written as ISO-8601 text, such as `2026-01-15T12:00:00Z`.
private func timestamp(_ text: String) -> Date {
    try! Date(text, strategy: .iso8601)
}

/// Catch-up and overlap decisions, on a fixed clock.
@Suite("Catch-up and overlap")
struct SchedulingPolicyTests {
    private let everySecond = try! CronExpression("* * * * * *")
    private let everyMinute = try! CronExpression("* * * * *")
    private let now = timestamp("2026-01-15T12:00:00Z").addingTimeInterval(0.5)

    private func plan(_ policy: AutomationBlock.CatchUp, _ schedule: CronExpression, since cursor: String) -> CatchUpPlan {
        CatchUpPlan(policy: policy, after: timestamp(cursor), now: now) { schedule.nextDate(after: $0, in: .gmt) }
    }

    @Test("none runs nothing and records the latest missed due time")
    func none() {
        let plan = plan(.skipMissed, everyMinute, since: "2026-01-15T11:55:00Z")
        #expect(plan.runs.isEmpty)
        #expect(plan.missed == timestamp("2026-01-15T11:59:00Z"))
        #expect(plan.missedCount == 4)
        #expect(plan.note == "4 due times missed while no daemon ran (catchUp: none)")
    }

    @Test("latest runs the most recent missed due time only")
    func latest() {
        let plan = plan(.latest, everyMinute, since: "2026-01-15T11:55:00Z")
        #expect(plan.runs == [timestamp("2026-01-15T11:59:00Z")])
        #expect(plan.missed == nil)
        #expect(plan.note == "catch-up: the latest of 4 missed due times")
    }

    @Test("all runs each missed due time in order, at most 100")
    func all() {
        let few = plan(.all, everyMinute, since: "2026-01-15T11:57:00Z")
        #expect(few.runs == ["11:58", "11:59"].map { timestamp("2026-01-15T\($0):00Z") })
        #expect(few.note == "catch-up: 2 missed due times run in order")
        let many = plan(.all, everyMinute, since: "2026-01-15T09:00:00Z")
        #expect(many.runs.count == CatchUpPlan.limit)
        #expect(many.runs.last == timestamp("2026-01-15T11:59:00Z"))
        #expect(many.note == "catch-up: 100 missed due times run in order; 79 older ones dropped (at most 100 catch-up runs)")
    }

    @Test("Due times less than a second old are late, not missed; nothing is missed right after the cursor")
    func lateness() {
        // 12:00:00 is half a second old: it is scheduled as usual, after `resume`.
        let plan = plan(.latest, everySecond, since: "2026-01-15T11:59:58Z")
        #expect(plan.runs == [timestamp("2026-01-15T11:59:59Z")])
        #expect(everySecond.nextDate(after: plan.resume, in: .gmt) == timestamp("2026-01-15T12:00:00Z"))
        let nothing = CatchUpPlan(policy: .all, after: now.addingTimeInterval(-0.9), now: now) { everySecond.nextDate(after: $0, in: .gmt) }
        #expect(nothing.runs.isEmpty && nothing.missedCount == 0 && nothing.note == nil)
    }

    @Test("A week down with an every-second schedule is planned without walking every second")
    func longDowntime() {
        let clock = ContinuousClock()
        let started = clock.now
        let plan = plan(.latest, everySecond, since: "2026-01-08T12:00:00Z")
        #expect(clock.now - started < .milliseconds(200))
        #expect(plan.runs == [timestamp("2026-01-15T11:59:59Z")])
        #expect(!plan.isCountExact)
        #expect(plan.note == "catch-up: the latest of more than 1000 missed due times")
    }

    @Test(
        "Overlap policies",
        arguments: [
            (AutomationBlock.Overlap.skip, 0, 0, OverlapDecision.start(replacing: false)),
            (.skip, 1, 0, .skip(reason: "the previous run was still going (overlap: skip)")),
            (.queue, 1, 0, .queue),
            (.queue, 1, 100, .skip(reason: "100 due times were already waiting (overlap: queue)")),
            (.parallel, 3, 0, .start(replacing: false)),
            (.replace, 1, 0, .start(replacing: true)),
            (.replace, 0, 0, .start(replacing: false))
        ])
    func overlap(policy: AutomationBlock.Overlap, running: Int, queued: Int, expected: OverlapDecision) {
        #expect(OverlapDecision(policy: policy, isSequentialCatchUp: false, running: running, queued: queued) == expected)
    }

    @Test("catchUp: all runs its missed due times one after another, whatever the overlap")
    func sequentialCatchUp() {
        #expect(OverlapDecision(policy: .parallel, isSequentialCatchUp: true, running: 1, queued: 0) == .queue)
        #expect(OverlapDecision(policy: .skip, isSequentialCatchUp: true, running: 0, queued: 0) == .start(replacing: false))
    }

    @Test("The due queue hands out the earliest due time first")
    func dueQueue() {
        var generator = SystemRandomNumberGenerator()
        let dates = (0..<500).map { _ in Date(timeIntervalSince1970: Double(Int.random(in: 0..<1_000_000, using: &generator))) }
        var queue = DueQueue()
        for (index, date) in dates.enumerated() { queue.insert(.init(date: date, key: "\(index)", generation: 1)) }
        var popped: [Date] = []
        while let entry = queue.removeFirst() { popped.append(entry.date) }
        #expect(popped == dates.sorted())
    }
}
