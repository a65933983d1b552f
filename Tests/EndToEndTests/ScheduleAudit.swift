import Foundation

/// What the shared `claim` table says about a schedule of every-second automations, checked
/// against the runs recorded and the files the runs wrote.
///
/// ```swift
/// let audit = ScheduleAudit(claims: try database.claims(), runs: try database.runs())
/// #expect(audit.holes(in: farm.names, from: start, to: end).isEmpty)
/// ```
struct ScheduleAudit {
    let claims: [SharedDatabase.Claim]
    let runs: [SharedDatabase.Run]

    /// `automation@dueTime` of each due time claimed more than once.
    var duplicates: [String] {
        Dictionary(grouping: claims) { "\($0.name)@\($0.dueTime)" }.filter { $0.value.count > 1 }.keys.sorted()
    }

    /// Run ids that more than one claim names.
    var sharedRunIDs: [String] {
        Dictionary(grouping: claims.compactMap(\.runID)) { $0 }.filter { $0.value.count > 1 }.keys.sorted()
    }

    /// Claims whose run id is not in the run history, and runs no claim names.
    var unlinked: (claims: [String], runs: [String]) {
        let runIDs = Set(runs.map(\.id))
        let claimed = Set(claims.compactMap(\.runID))
        return (
            claims.filter { $0.runID.map { !runIDs.contains($0) } ?? false }.map { "\($0.name)@\($0.dueTime)" },
            runs.filter { !claimed.contains($0.id) }.map { "\($0.name ?? "?") \($0.id)" }
        )
    }

    /// The claims of due times from `start` to `end`, both included.
    func window(from start: Int64, to end: Int64) -> [SharedDatabase.Claim] {
        claims.filter { $0.dueTime >= start && $0.dueTime <= end }
    }

    /// For each automation, the seconds from `start` to `end` that nobody claimed.
    func holes(in names: [String], from start: Int64, to end: Int64) -> [String: [Int64]] {
        let claimed = Dictionary(grouping: window(from: start, to: end), by: \.name).mapValues { Set($0.map(\.dueTime)) }
        var holes: [String: [Int64]] = [:]
        for name in names {
            let missing = (start...end).filter { !(claimed[name]?.contains($0) ?? false) }
            if !missing.isEmpty { holes[name] = missing }
        }
        return holes
    }

    /// The longest stretch, in seconds, between two consecutive claimed due times of one
    /// automation from `start` to `end`, and that automation.
    func longestGap(from start: Int64, to end: Int64) -> (seconds: Int64, automation: String, after: Int64) {
        var longest: (seconds: Int64, automation: String, after: Int64) = (0, "", 0)
        for (name, claims) in Dictionary(grouping: window(from: start, to: end), by: \.name) {
            let times = [start - 1] + claims.map(\.dueTime).sorted() + [end + 1]
            for (earlier, later) in zip(times, times.dropFirst()) where later - earlier > longest.seconds {
                longest = (later - earlier, name, earlier)
            }
        }
        return longest
    }

    /// How many claims each daemon made.
    func share(of claims: [SharedDatabase.Claim]) -> [String: Int] {
        Dictionary(grouping: claims, by: \.daemonID).mapValues(\.count)
    }

    /// For each automation, how many of its claims started a run (whatever became of it: the
    /// claim says so, or the history holds its run) and how many succeeded.
    func startedAndSucceeded() -> [String: (started: Int, succeeded: Int)] {
        let recorded = Set(runs.map(\.id))
        var counts: [String: (started: Int, succeeded: Int)] = [:]
        for claim in claims where claim.startedAt != nil || claim.status == "succeeded" || claim.runID.map(recorded.contains) == true {
            counts[claim.name, default: (0, 0)].started += 1
            if claim.status == "succeeded" { counts[claim.name, default: (0, 0)].succeeded += 1 }
        }
        return counts
    }

    /// Automations whose runs wrote more files than their claims started runs, or fewer files
    /// than runs succeeded: `name: files vs started/succeeded`.
    func sideEffectMismatches(_ files: [String: Int]) -> [String] {
        let counts = startedAndSucceeded()
        return files.keys.sorted().compactMap { name in
            let count = counts[name] ?? (0, 0)
            let written = files[name] ?? 0
            return written > count.started || written < count.succeeded
                ? "\(name): \(written) files, \(count.started) runs started, \(count.succeeded) succeeded; its claims: "
                    + Self.statusCounts(claims.filter { $0.name == name }) : nil
        }
    }

    /// The `fraction` quantile (0…1) of values, in order.
    static func quantile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }

    /// Statuses of the claims, counted, as `status: n` in a stable order.
    static func statusCounts(_ claims: [SharedDatabase.Claim]) -> String {
        Dictionary(grouping: claims, by: \.status).map { "\($0.key): \($0.value.count)" }.sorted().joined(separator: ", ")
    }
}
