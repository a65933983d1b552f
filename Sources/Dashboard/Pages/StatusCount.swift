import WorkflowKit

/// How many runs ended (or run) with one status, for a summary.
struct StatusCount: Sendable, Encodable {
    var status: String
    var count: Int

    /// One count for every status, zeros included, in the order statuses are listed.
    static func all(_ counts: [RunHistory.Status: Int]) -> [StatusCount] {
        RunHistory.Status.shownOrder.map { StatusCount(status: $0.rawValue, count: counts[$0] ?? 0) }
    }
}

extension RunHistory.Status {
    /// The statuses in the order pages list them: what needs attention first.
    static let shownOrder: [RunHistory.Status] = [.failed, .interrupted, .running, .cancelled, .succeeded]
}
