/// A fixed number of turns that tasks wait for in order, suspended rather than holding a thread.
///
/// ``EndToEndTrait`` lets a few end-to-end tests run at a time through them. A task that asks
/// to go `first` is given the next free turn before every task that did not.
///
/// ```swift
/// let turns = Turns(4)
/// let result = try await turns.taking { try await work() }
/// let urgent = try await turns.taking(first: true) { try await work() }
/// ```
public actor Turns {
    private var free: Int
    /// The waiting tasks that asked to go first, in the order they asked.
    private var waitingFirst: [CheckedContinuation<Void, Never>] = []
    /// The other waiting tasks, in the order they asked.
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Turns of which `count` can be held at once.
    public init(_ count: Int) {
        free = count
    }

    /// Waits for a turn, runs `work` and gives the turn back, even when `work` throws.
    ///
    /// - Parameters:
    ///   - first: Whether the task goes before the waiting tasks that did not ask to.
    ///   - work: What runs while the turn is held.
    public nonisolated func taking<T: Sendable>(first: Bool = false, _ work: () async throws -> T) async rethrows -> T {
        await take(first: first)
        do {
            let value = try await work()
            await giveBack()
            return value
        } catch {
            await giveBack()
            throw error
        }
    }

    /// How many tasks wait for a turn.
    public var waitingCount: Int { waitingFirst.count + waiting.count }

    private func take(first: Bool) async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { continuation in
            if first { waitingFirst.append(continuation) } else { waiting.append(continuation) }
        }
    }

    private func giveBack() {
        if !waitingFirst.isEmpty {
            waitingFirst.removeFirst().resume()
        } else if !waiting.isEmpty {
            waiting.removeFirst().resume()
        } else {
            free += 1
        }
    }
}
