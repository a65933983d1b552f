import Foundation
import StateStorage

/// How long to wait before trying a database again after it could not be reached: a quarter
/// of a second, doubling with each failure up to five seconds, back to a quarter once a try
/// succeeds.
///
/// ```swift
/// var backoff = RetryBackoff()
/// let wait = backoff.failed()   // 0.25, then 0.5, 1, 2, 4, 5, 5…
/// backoff.succeeded()
/// ```
struct RetryBackoff: Equatable {
    static let shortest: TimeInterval = 0.25
    static let longest: TimeInterval = 5

    /// Failures in a row.
    private(set) var failures = 0

    /// The wait after one more failure.
    mutating func failed() -> TimeInterval {
        failures += 1
        return min(Self.longest, Self.shortest * pow(2, Double(min(failures - 1, 16))))
    }

    mutating func succeeded() {
        failures = 0
    }

    /// Whether an error is worth trying again: the database could not be reached, or a commit's
    /// outcome is unknown (the stores' writes are safe to repeat).
    static func isTransient(_ error: any Error) -> Bool {
        guard let error = error as? StateDatabaseError else { return false }
        return error.isUnavailable || error.isCommitUncertain
    }
}
