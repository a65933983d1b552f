import Clockwork
import Foundation
import WorkflowKit

/// Holds each webhook to its `rate:`: at most N requests per second, minute or hour, in
/// bursts of up to N (a token bucket per webhook name, refilled continuously).
///
/// A server asks before it runs anything, and answers 429 with the wait when refused:
///
/// ```swift
/// let limiter = WebhookRateLimiter(clock: .system)
/// if let wait = limiter.admit(automation) {
///     return .tooManyRequests(retryAfter: wait)
/// }
/// ```
public final class WebhookRateLimiter: @unchecked Sendable {
    private let lock = NSLock()
    private var buckets: [String: Bucket] = [:]
    /// What the buckets refill by.
    private let clock: any EngineClock

    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    /// Creates a limiter with every bucket full.
    ///
    /// - Parameter clock: What the buckets refill by.
    public init(clock: any EngineClock = .system) {
        self.clock = clock
    }

    /// Takes one request of a webhook's allowance.
    ///
    /// ```swift
    /// limiter.admit(automation)   // nil: run it; .seconds(0.1): refuse it, try again in 100 ms
    /// ```
    ///
    /// - Parameters:
    /// - Parameter automation: The automation whose webhook is asked; one without a webhook is
    ///   always admitted.
    /// - Returns: `nil` when the request is admitted, else how long until one would be.
    public func admit(_ automation: Automation) -> Duration? {
        guard let webhook = automation.webhook else { return nil }
        return admit(name: webhook.name.value, rate: webhook.rate)
    }

    /// Takes one request of the allowance of a webhook name at a rate.
    ///
    /// - Parameters:
    ///   - name: The webhook's name, which keys its bucket.
    ///   - rate: Its rate; a bucket holds at most `rate.count` requests.
    /// - Returns: `nil` when admitted, else how long until a request would be.
    public func admit(name: String, rate: AutomationBlock.Rate) -> Duration? {
        let now = clock.now()
        let capacity = Double(rate.count)
        let perSecond = capacity / Double(rate.interval.components.seconds)
        return lock.withLock {
            var bucket = buckets[name] ?? Bucket(tokens: capacity, updated: now)
            let seconds = now.timeIntervalSince(bucket.updated)
            bucket.tokens = min(capacity, bucket.tokens + max(0, seconds) * perSecond)
            bucket.updated = max(now, bucket.updated)
            defer { buckets[name] = bucket }
            guard bucket.tokens >= 1 else {
                return .milliseconds(Int64(((1 - bucket.tokens) / perSecond * 1000).rounded(.up)))
            }
            bucket.tokens -= 1
            return nil
        }
    }
}
