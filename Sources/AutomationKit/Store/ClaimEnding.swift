import Foundation

/// How a claimed due time ended, to record in its ``Claim``.
struct ClaimEnding: Sendable, Equatable {
    var id: Int64
    var status: Claim.Status
    var note: String?
    var runID: String?
    var attempts: Int
    var startedAt: Date?
    var endedAt: Date
}
