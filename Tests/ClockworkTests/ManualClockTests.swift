import Clockwork
import Foundation
import ShortcutsTestSupport
import Testing

@Suite("The manual clock")
struct ManualClockTests {
    @Test("advancing wakes the sleepers whose deadline came, earliest first, and no other")
    func wakesInOrder() async throws {
        let clock = ManualClock()
        let start = clock.now()
        let woken = Woken()
        let tasks = [30, 10, 20].map { seconds in
            Task {
                try await clock.sleep(for: .seconds(seconds))
                woken.append(seconds)
            }
        }
        try await clock.waitForSleepers(3)
        clock.advance(by: .seconds(25))
        try await tasks[1].value
        try await tasks[2].value
        #expect(clock.sleeperCount == 1)
        #expect(clock.nextDeadline == start.addingTimeInterval(30))
        clock.advance(by: .seconds(5))
        try await tasks[0].value
        #expect(woken.values.sorted() == [10, 20, 30])
        #expect(woken.values.last == 30)
        #expect(clock.now() == start.addingTimeInterval(30))
    }

    @Test("a deadline already passed returns at once, and the clock never goes back")
    func passedDeadline() async throws {
        let clock = ManualClock()
        let start = clock.now()
        try await clock.sleep(until: start)
        try await clock.sleep(until: start.addingTimeInterval(-5))
        clock.advance(to: start.addingTimeInterval(-60))
        #expect(clock.now() == start)
        #expect(clock.sleeperCount == 0)
    }

    @Test("cancelling a sleeping task ends its sleep with CancellationError and removes it")
    func cancellation() async throws {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(for: .seconds(3600)) }
        try await clock.waitForSleepers(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await cancelledFirst.value }
    }

    @Test("a thread waiting on a condition wakes at its deadline by the clock, or when signalled")
    func threadWaits() async throws {
        let clock = ManualClock()
        let start = clock.now()
        let condition = NSCondition()
        let timedOut = Woken()
        let thread = Thread {
            condition.lock()
            let signalled = clock.wait(on: condition, until: start.addingTimeInterval(60))
            condition.unlock()
            timedOut.append(signalled ? 0 : 1)
        }
        thread.start()
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(59))
        // Still asleep: its deadline has not come.
        try await clock.waitForSleepers(1)
        #expect(timedOut.values.isEmpty)
        clock.advance(by: .seconds(1))
        try await timedOut.wait(for: 1)
        #expect(timedOut.values == [1])

        let signalled = Woken()
        let flag = Flag()
        Thread {
            condition.lock()
            while !flag.isSet { _ = clock.wait(on: condition, until: start.addingTimeInterval(3600)) }
            condition.unlock()
            signalled.append(clock.now() < start.addingTimeInterval(3600) ? 0 : 1)
        }.start()
        try await clock.waitForSleepers(1)
        condition.withLock {
            flag.set()
            condition.broadcast()
        }
        try await signalled.wait(for: 1)
        #expect(signalled.values == [0])
    }

    @Test("a paused thread returns when the clock reaches its deadline")
    func pause() async throws {
        let clock = ManualClock()
        let done = Woken()
        Thread {
            clock.pause(for: .milliseconds(1500))
            done.append(1)
        }.start()
        try await clock.waitForSleepers(1)
        #expect(clock.advanceToNextDeadline() == Date(timeIntervalSince1970: 1_800_000_001.5))
        try await done.wait(for: 1)
        #expect(clock.advanceToNextDeadline() == nil)
    }

    @Test("waiting for sleepers that never come fails, naming how many came")
    func missingSleepers() async throws {
        let clock = ManualClock()
        let error = await #expect(throws: ManualClockError.self) { try await clock.waitForSleepers(1, patience: .milliseconds(1)) }
        #expect(error?.description.contains("found 0") == true)
    }

    @Test("the system clock reads the real time and sleeps by it")
    func systemClock() async throws {
        let clock: any EngineClock = .system
        let before = Date()
        #expect(abs(clock.now().timeIntervalSince(before)) < 60)
        try await clock.sleep(until: before.addingTimeInterval(-1))
        let condition = NSCondition()
        let waited = condition.withLock { clock.wait(on: condition, until: Date().addingTimeInterval(-1)) }
        #expect(waited == false)
        #expect(Duration.milliseconds(1500).timeInterval == 1.5)
        #expect(before.adding(.seconds(2)) == before.addingTimeInterval(2))
    }
}

/// Values appended from any thread, with a wait for a count of them.
private final class Woken: @unchecked Sendable {
    private let condition = NSCondition()
    private var stored: [Int] = []

    var values: [Int] { condition.withLock { stored } }

    private let appended = ChangeNotice()

    func append(_ value: Int) {
        condition.withLock {
            stored.append(value)
            condition.broadcast()
        }
        appended.post()
    }

    func wait(for count: Int) async throws {
        #expect(try await eventually(watching: [.notice(appended)]) { self.values.count >= count })
    }
}

private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
