import Clockwork
import Foundation
import Synchronization

/// Slows down guessing of the token: a client that gave a wrong token 10 times within a minute
/// is refused (429) until the minute has passed.
///
/// ```swift
/// if let wait = throttle.delay(for: address) { throw PageError(.tooManyRequests, …) }
/// throttle.recordFailure(from: address)
/// ```
final class RefusalThrottle: Sendable {
    /// How many wrong tokens a client may give within ``window``.
    static let allowedFailures = 10
    /// The window failures are counted over.
    static let window: TimeInterval = 60

    private let failures = Mutex<[String: [Date]]>([:])
    /// What the window is measured by.
    private let clock: any EngineClock

    init(clock: any EngineClock = .system) {
        self.clock = clock
    }

    /// Records a wrong token from a client.
    func recordFailure(from client: String) {
        let now = clock.now()
        failures.withLock { failures in
            var recent = (failures[client] ?? []).filter { now.timeIntervalSince($0) < Self.window }
            recent.append(now)
            failures[client] = recent
            if failures.count > 10_000 {
                failures = failures.filter { $0.value.contains { now.timeIntervalSince($0) < Self.window } }
            }
        }
    }

    /// How many seconds a client must wait before trying again, or `nil` when it may try now.
    func delay(for client: String) -> Int? {
        let now = clock.now()
        return failures.withLock { failures in
            let recent = (failures[client] ?? []).filter { now.timeIntervalSince($0) < Self.window }
            guard recent.count >= Self.allowedFailures, let oldest = recent.min() else { return nil }
            return max(1, Int((Self.window - now.timeIntervalSince(oldest)).rounded(.up)))
        }
    }
}
