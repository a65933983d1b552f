import Foundation

/// The due times of one ``AutomationStore/claim(_:lease:)`` call as they are decided: the
/// automations' running and waiting claims over every daemon, kept up to date as the batch's own
/// claims are inserted, and each request's result.
struct ClaimBatch {
    /// An automation's claims that run or wait.
    struct Active {
        var running = 0
        var queued = 0
    }

    /// A due time of an automation.
    struct Slot: Hashable {
        var key: String
        var dueTime: Int64
    }

    let requests: [ClaimRequest]
    let lease: Lease
    /// The database's clock.
    let now: Double
    var active: [String: Active]
    var results: [ClaimResult?]
    private var replacing: Set<Int> = []

    init(requests: [ClaimRequest], lease: Lease, now: Double, active: [String: Active]) {
        self.requests = requests
        self.lease = lease
        self.now = now
        self.active = active
        results = Array(repeating: nil, count: requests.count)
    }

    /// The requests' indices by round: the first due time of each automation, then the second…
    var rounds: [[Int]] {
        let byKey = Dictionary(grouping: requests.indices, by: { requests[$0].automationKey })
            .mapValues { $0.sorted { requests[$0].dueTime < requests[$1].dueTime } }
        let keys = byKey.keys.sorted()
        let count = byKey.values.map(\.count).max() ?? 0
        return (0..<count).map { round in keys.compactMap { key in byKey[key].flatMap { round < $0.count ? $0[round] : nil } } }
    }

    /// The claim a request makes, after its automation's `overlap:` over every daemon's claims.
    mutating func decide(_ index: Int) -> Claim {
        let request = requests[index]
        var status = Claim.Status.missed
        var note = request.note
        if !request.isMissed {
            let current = active[request.automationKey] ?? Active()
            switch OverlapDecision(
                policy: request.overlap, isSequentialCatchUp: request.isSequentialCatchUp, running: current.running, queued: current.queued)
            {
            case .start(let replaces):
                status = .running
                if replaces { replacing.insert(index) }
            case .queue:
                status = .queued
            case .skip(let reason):
                status = .skipped
                note = note.map { "\($0); \(reason)" } ?? reason
            }
        }
        let reservesRun = status == .running || status == .queued
        return Claim(
            id: nil, automationKey: request.automationKey, dueTime: request.dueTime, status: status, runID: reservesRun ? request.runID : nil,
            daemonID: lease.daemonID, isCatchUp: request.isCatchUp, attempts: status == .running ? 1 : 0, claimedAt: now, startedAt: nil,
            endedAt: nil, note: note, epoch: lease.epoch)
    }

    /// Whether the request's claim cancels the automation's other runs.
    func replaces(_ index: Int) -> Bool { replacing.contains(index) }

    /// Records an inserted claim.
    mutating func claimed(_ claim: Claim, at index: Int) {
        results[index] = .claimed(claim, replaced: [])
        switch claim.status {
        case .running: active[claim.automationKey, default: Active()].running += 1
        case .queued: active[claim.automationKey, default: Active()].queued += 1
        default: break
        }
    }
}
