import Clockwork
import Foundation
import Synchronization

/// A value that is set once, and that tasks wait for: without a deadline, or until a clock
/// reaches one.
///
/// ```swift
/// let exited = Latch<Int32>()
/// Thread { exited.set(waitForExit()) }.start()
/// if let status = await exited.wait(until: clock.now().adding(.seconds(1)), clock: clock) { print(status) }
/// ```
final class Latch<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, waiters: [CheckedContinuation<Value, Never>])>((nil, []))

    /// The value, or `nil` until it is set.
    var value: Value? { state.withLock { $0.value } }

    /// Sets the value and wakes every waiter; later calls change nothing.
    func set(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// Waits until the value is set.
    func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let known = state.withLock { state -> Value? in
                if let value = state.value { return value }
                state.waiters.append(continuation)
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    /// Waits until the value is set or `clock` reaches `deadline`, whichever comes first.
    ///
    /// - Returns: The value, or `nil` when it was not set by the deadline.
    func wait(until deadline: Date, clock: any EngineClock) async -> Value? {
        if let value { return value }
        let answer = Answer<Value?>()
        return await withCheckedContinuation { continuation in
            answer.expect(continuation)
            let timer = Task { [self] in
                try? await clock.sleep(until: deadline)
                answer.give(value)
            }
            Task { [self] in
                let value = await wait()
                timer.cancel()
                answer.give(value)
            }
        }
    }
}

/// The first of several answers, given to one waiting task.
private final class Answer<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Value, Never>?>(nil)

    func expect(_ waiter: CheckedContinuation<Value, Never>) {
        continuation.withLock { $0 = waiter }
    }

    func give(_ value: Value) {
        continuation.withLock { waiter in
            defer { waiter = nil }
            return waiter
        }?.resume(returning: value)
    }
}
