import Clockwork
import Foundation
import Synchronization

/// The browsers signed in with the token: each holds a random session in a cookie, kept in this
/// process's memory for a day (a restarted server asks to sign in again).
///
/// ```swift
/// let session = sessions.open()                 // after the token was given
/// sessions.isOpen(cookieValue)                  // on each request
/// ```
final class SessionStore: Sendable {
    /// How long a session lasts.
    static let lifetime: TimeInterval = 86_400
    /// The most sessions kept; the oldest is closed for a new one beyond it.
    static let capacity = 1_000

    private let sessions = Mutex<[String: Date]>([:])
    /// What sessions expire by.
    private let clock: any EngineClock

    init(clock: any EngineClock = .system) {
        self.clock = clock
    }

    /// Opens a new session.
    ///
    /// - Returns: The session's token, for the cookie.
    func open() -> String {
        let now = clock.now()
        let token = RandomToken.make()
        sessions.withLock { sessions in
            sessions = sessions.filter { $0.value > now }
            if sessions.count >= Self.capacity, let oldest = sessions.min(by: { $0.value < $1.value }) {
                sessions[oldest.key] = nil
            }
            sessions[token] = now.addingTimeInterval(Self.lifetime)
        }
        return token
    }

    /// Whether a cookie's value is an open session.
    func isOpen(_ token: String) -> Bool {
        let now = clock.now()
        guard RandomToken.isWellFormed(token) else { return false }
        return sessions.withLock { sessions in
            sessions.contains { SecretComparison.matches(token, expected: $0.key) && $0.value > now }
        }
    }

    /// Closes a session (signing out).
    func close(_ token: String) {
        _ = sessions.withLock { $0.removeValue(forKey: token) }
    }
}
