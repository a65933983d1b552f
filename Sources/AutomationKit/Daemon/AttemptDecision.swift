import Foundation

/// What follows an attempt of an automation's run: another attempt, after the `retry:`
/// backoff, or the end of the run with its status. The daemon's due times and the runs started
/// now (webhooks, file events, `automations run`) decide it alike.
///
/// ```swift
/// switch AttemptDecision(after: .failed("exit 1"), attempt: 1, of: 3, backoff: .seconds(30)) {
/// case .retry(let wait): …   // wait == .seconds(30)
/// case .end(let status): …
/// }
/// ```
enum AttemptDecision: Equatable {
    /// Try again, after this backoff (at once when `nil`).
    case retry(after: Duration?)
    /// The run ends with this status.
    case end(Claim.Status)

    /// Decides what follows an attempt.
    ///
    /// - Parameters:
    ///   - outcome: How the attempt ended.
    ///   - attempt: Its number, from 1.
    ///   - attempts: How many attempts `retry:` allows (1 without it).
    ///   - backoff: The wait between attempts `retry:` asks for.
    init(after outcome: Automation.AttemptOutcome, attempt: Int, of attempts: Int, backoff: Duration?) {
        let isLast = attempt >= attempts
        switch outcome {
        case .succeeded: self = .end(.succeeded)
        case .cancelled: self = .end(.cancelled)
        case .failed: self = isLast ? .end(.failed) : .retry(after: backoff)
        case .timedOut: self = isLast ? .end(.timedOut) : .retry(after: backoff)
        }
    }
}
