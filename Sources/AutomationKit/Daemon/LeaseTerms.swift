import Foundation

/// When a daemon renews its lease, and when it may settle the claims of daemons whose lease
/// expired: values of the lease's duration, decided without a store or a clock.
///
/// ```swift
/// let terms = LeaseTerms(duration: .seconds(10))
/// terms.renewalInterval                                        // 2.5
/// terms.maySettleOthers(heldSince: started, now: started + 9)  // false: not a whole lease yet
/// ```
struct LeaseTerms: Equatable {
    /// How long a lease lasts without a renewal (`--lease`).
    var duration: Duration

    /// The lease is renewed every quarter of its duration, so that three renewals in a row can
    /// fail (a slow database, a busy machine) before it expires.
    var renewalInterval: TimeInterval { duration.timeInterval / 4 }

    /// Whether a daemon may settle the claims of daemons whose lease expired: only once it has
    /// held its own lease, without a failed renewal, for a whole duration. The daemons cut off
    /// from the database together then come back without taking each other's claims over: each
    /// renews its own lease first.
    ///
    /// - Parameters:
    ///   - heldSince: Since when the daemon holds its lease without a failed renewal; `nil` while
    ///     renewals fail or it registers again.
    ///   - now: The daemon's clock now.
    func maySettleOthers(heldSince: Date?, now: Date) -> Bool {
        guard let heldSince else { return false }
        return now.timeIntervalSince(heldSince) >= duration.timeInterval
    }
}
