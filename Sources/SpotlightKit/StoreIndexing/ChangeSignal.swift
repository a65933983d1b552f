import Clockwork
import Foundation
import Synchronization

/// A signal that tasks wait on until something changes, or until a deadline on a clock.
///
/// Each ``signal()`` starts a new generation and wakes every waiter. A waiter first reads
/// ``generation``, then looks at the state it cares about, then waits past the generation it
/// read: a change made between the look and the wait is never missed.
///
/// ```swift
/// let changed = ChangeSignal()
/// let seen = changed.generation
/// if !isDone() { _ = await changed.wait(past: seen, until: clock.now().adding(.seconds(1)), clock: clock) }
/// ```
final class ChangeSignal: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// The number of signals so far.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Starts a new generation and wakes every task waiting.
    func signal() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.generation &+= 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until the generation is past `seen`, or the task is cancelled.
    func wait(past seen: UInt64) async {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.generation != seen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Waits until the generation is past `seen`, or `clock` reaches `deadline`.
    ///
    /// - Returns: `true` when a signal came, `false` at the deadline or on cancellation.
    func wait(past seen: UInt64, until deadline: Date, clock: any EngineClock) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.wait(past: seen)
                return !Task.isCancelled
            }
            group.addTask {
                try? await clock.sleep(until: deadline)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
