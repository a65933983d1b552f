/// A fixed number of turns that tasks wait for in order, suspended rather than holding a thread.
///
/// ``EndToEndTrait`` lets a few end-to-end tests run at a time through them.
///
/// ```swift
/// let turns = Turns(4)
/// let result = try await turns.taking { try await work() }
/// ```
public actor Turns {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Turns of which `count` can be held at once.
    public init(_ count: Int) {
        free = count
    }

    /// Waits for a turn, runs `work` and gives the turn back, even when `work` throws.
    public nonisolated func taking<T: Sendable>(_ work: () async throws -> T) async rethrows -> T {
        await take()
        do {
            let value = try await work()
            await giveBack()
            return value
        } catch {
            await giveBack()
            throw error
        }
    }

    private func take() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func giveBack() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
