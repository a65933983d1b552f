import Foundation
import ShortcutsSystemTestSupport
import Testing

/// Three `shortcuts daemon` processes, each with its own `$SHORTCUTS_HOME` and its own copy of
/// the same workflows folder as if on its own machine, sharing one PostgreSQL database: every due
/// time claimed and run once, spread over the three, through `kill -9`, a restart of the
/// database, a daemon paused past its lease, and an overlap policy that holds across machines.
/// Checked in the database (with `psql`) and by the files the runs write.
@Suite("Many daemons on PostgreSQL", .serialized, .enabled(if: PostgresServer.isAvailable, PostgresServer.skipReason), .endToEnd)
struct MultiDaemonTests {
    /// The daemons' lease (the daemon's default).
    static let lease: Int64 = 10

    /// Whether the one-minute load test runs: it keeps both cores of a small machine busy, so it
    /// runs alone, after the suite (`.ci/run` runs it with `SHORTCUTS_LOAD_TESTS=1`).
    static let runsLoadTest = ProcessInfo.processInfo.environment["SHORTCUTS_LOAD_TESTS"] == "1"

    @Test(
        "3 daemons, 200 every-second automations, a minute: every due time claimed and run exactly once, spread over all 3",
        .enabled(
            if: runsLoadTest,
            "a one-minute load test that needs the machine to itself: SHORTCUTS_LOAD_TESTS=1 swift test --filter everySecondForAMinute")
    )
    func everySecondForAMinute() async throws {
        let scenario = try Scenario(automations: 200)
        defer { scenario.end() }
        try await scenario.startAndWaitForAllThree()
        let start = Int64(Date().timeIntervalSince1970.rounded(.up)) + 1
        let end = start + 59
        // Wall time: three real daemons run a minute of every-second automations on PostgreSQL.
        try await Task.sleep(until: end + 4)
        let statuses = try await detached { scenario.cluster.stopAll() }
        #expect(statuses.values.allSatisfy { $0 == 0 }, "\(statuses)\n\(scenario.cluster.logs)")

        let audit = try scenario.audit()
        let window = audit.window(from: start, to: end)
        #expect(audit.duplicates.isEmpty, "claimed twice: \(audit.duplicates.prefix(20))")
        let holes = audit.holes(in: scenario.farm.names, from: start, to: end)
        #expect(
            holes.isEmpty, "\(holes.values.map(\.count).reduce(0, +)) due times never claimed, e.g. \(holes.sorted { $0.key < $1.key }.prefix(5))")
        #expect(window.count == 200 * 60)
        #expect(window.allSatisfy { $0.status == "succeeded" }, "\(ScheduleAudit.statusCounts(window))")
        #expect(audit.sharedRunIDs.isEmpty, "runs claimed by two due times: \(audit.sharedRunIDs.prefix(10))")
        let unlinked = audit.unlinked
        #expect(
            unlinked.claims.isEmpty && unlinked.runs.isEmpty,
            "claims without a run: \(unlinked.claims.prefix(10)); runs without a claim: \(unlinked.runs.prefix(10))")
        let mismatches = audit.sideEffectMismatches(try scenario.farm.effectCounts())
        #expect(mismatches.isEmpty, "runs seen by their files differ from the claims: \(mismatches.prefix(10))")

        let share = audit.share(of: window)
        #expect(share.count == 3, "\(share)")
        #expect(share.values.allSatisfy { $0 >= window.count / 6 }, "each daemon runs a fair part of the window: \(share)")
        let lateness = window.map { $0.claimedAt - Double($0.dueTime) }
        let startLateness = window.compactMap { claim in claim.startedAt.map { $0 - Double(claim.dueTime) } }
        print(
            """
            MultiDaemon: \(window.count) due times in 60 s over 3 daemons \(share.values.sorted()); \
            claim lateness p50 \(ms(ScheduleAudit.quantile(lateness, 0.5))) p99 \(ms(ScheduleAudit.quantile(lateness, 0.99))); \
            start lateness p50 \(ms(ScheduleAudit.quantile(startLateness, 0.5))) p99 \(ms(ScheduleAudit.quantile(startLateness, 0.99)))
            """)
    }

    @Test("kill -9 of one daemon mid-run: its running claims interrupted within the lease, its share taken over without a gap")
    func killedDaemon() async throws {
        let scenario = try Scenario(automations: 30, behaviour: .init(runTime: .milliseconds(2500)))
        defer { scenario.end() }
        try await scenario.startAndWaitForAllThree()
        let victim = scenario.cluster["b"]
        let victimID = try scenario.daemonID(of: victim)
        let database = scenario.database
        // The kill happens on the thread that saw the victim's runs going, outside the pool.
        let killed = try await detached { () -> (at: Date, running: [SharedDatabase.Claim])? in
            let seen = database.poll(timeout: 30) { database in
                try database.integer("SELECT count(*) FROM claim WHERE daemonID = '\(victimID)' AND status = 'running'") >= 3
            }
            guard seen.heldAt != nil else { return nil }
            victim.daemon?.kill(SIGKILL)
            let at = Date()
            return (at, try database.claims().filter { $0.daemonID == victimID && $0.status == "running" })
        }
        let kill = try #require(killed, "no runs of the victim seen going\n\(scenario.cluster.logs)")
        let settled = try await scenario.wait("the victim's claims settled", timeout: Double(Self.lease) + 20) { database in
            try database.integer("SELECT count(*) FROM claim WHERE daemonID = '\(victimID)' AND status IN ('running', 'queued')") == 0
        }
        let settling = settled.timeIntervalSince(kill.at)
        #expect(settling <= Double(Self.lease) + 5, "settled \(settling) s after the kill; the lease is \(Self.lease) s")
        // Wall time: due times after the takeover pass on the real clock of the live daemons.
        try await Task.sleep(for: .seconds(6))
        let end = Int64(Date().timeIntervalSince1970) - 2
        try await scenario.waitUntilEnded(through: end)
        let statuses = try await detached { scenario.cluster.stopAll() }
        #expect(statuses.values.allSatisfy { $0 == 0 }, "\(statuses)\n\(scenario.cluster.logs)")

        let audit = try scenario.audit()
        let killedAt = Int64(kill.at.timeIntervalSince1970)
        let running = Set(kill.running.map(\.id))
        #expect(!running.isEmpty)
        let afterwards = audit.claims.filter { running.contains($0.id) }
        let runs = Dictionary(audit.runs.map { ($0.id, $0) }) { first, _ in first }
        let settledRuns = afterwards.compactMap { $0.runID.flatMap { runs[$0] } }
        #expect(settledRuns.count == afterwards.count, "every claim running at the kill has its run")
        // A run that the victim recorded as ended just before the kill, before it could record
        // its claim's end, keeps its status (the settling daemon reads it from the history); the
        // others were cut short and are interrupted, claim and run alike.
        for claim in afterwards {
            let run = claim.runID.flatMap { runs[$0] }
            let endedBeforeTheKill = run.map { $0.status != "interrupted" && ($0.endedAt ?? .infinity) <= kill.at.timeIntervalSince1970 } ?? false
            #expect(
                (claim.status == "interrupted" && run?.status == "interrupted") || (endedBeforeTheKill && claim.status == run?.status),
                "\(claim.name)@\(claim.dueTime): claim \(claim.status), run \(run?.status ?? "missing") ended at \(run?.endedAt ?? 0), killed at \(kill.at.timeIntervalSince1970)"
            )
        }
        #expect(afterwards.contains { $0.status == "interrupted" }, "runs going at the kill are interrupted")
        let victimRow = try #require(try scenario.database.daemons().first { $0.id == victimID })
        #expect(victimRow.settledAt != nil && victimRow.settledBy != nil && victimRow.settledBy != victimID)

        #expect(audit.duplicates.isEmpty, "\(audit.duplicates.prefix(20))")
        #expect(audit.sharedRunIDs.isEmpty)
        #expect(!audit.claims.contains { $0.daemonID == victimID && $0.dueTime > killedAt + 1 }, "the killed daemon claimed nothing after its death")
        let gap = audit.longestGap(from: killedAt - 3, to: end)
        #expect(gap.seconds <= Self.lease + 2, "\(gap.automation) has no claim for \(gap.seconds) s after \(gap.after) (killed at \(killedAt))")
        let holes = audit.holes(in: scenario.farm.names, from: killedAt - 3, to: end)
        let mismatches = audit.sideEffectMismatches(try scenario.farm.effectCounts())
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        print(
            """
            MultiDaemon kill -9: \(kill.running.count) running claims settled \(ms(settling)) after the kill; \
            longest gap \(gap.seconds) s; \(holes.values.map(\.count).reduce(0, +)) unclaimed due times after the kill
            """)
    }

    @Test("PostgreSQL restarted mid-test: nothing run twice, every due time claimed and run, skipped or missed")
    func databaseRestarted() async throws {
        // A server of its own: stopping it must not disturb other suites' databases.
        let server = try PostgresServer.start()
        defer { server.stop() }
        // A lease five times the outage: a daemon that reconnects late on a busy machine still
        // holds it. (Cut off for longer than its lease, a daemon's claims are interrupted, as
        // they should be: that is the kill -9 test's case.)
        let scenario = try Scenario(automations: 30, server: server, arguments: ["--lease", "30s"])
        defer { scenario.end() }
        try await scenario.startAndWaitForAllThree()
        let start = Int64(Date().timeIntervalSince1970.rounded(.up)) + 1
        // Wall time: due times before the outage pass on the real clock of the daemons.
        try await Task.sleep(for: .seconds(5))
        let downAt = Date()
        server.stopFor(seconds: 6)
        let back = try await detached { server.waitUntilRunning(timeout: 60) }
        try #require(back, "the server did not come back: \(server.logFile.path)")
        let upAt = Date()
        // Every daemon claims again after the outage.
        let recovered = try await scenario.wait("claims by all three after the restart", timeout: 60) { database in
            try database.integer("SELECT count(DISTINCT daemonID) FROM claim WHERE claimedAt > \(upAt.timeIntervalSince1970)") == 3
        }
        // The outage's due times run one after another (catchUp: all): wait until they all ended.
        let upTime = Int64(upAt.timeIntervalSince1970)
        _ = try await scenario.wait("the outage's due times run", timeout: 60) { database in
            try database.integer("SELECT count(*) FROM claim WHERE status IN ('queued', 'running') AND dueTime <= \(upTime)") == 0
        }
        // Wall time: due times after the restart pass on the real clock of the daemons.
        try await Task.sleep(for: .seconds(4))
        let end = Int64(Date().timeIntervalSince1970) - 3
        try await scenario.waitUntilEnded(through: end)
        let statuses = try await detached { scenario.cluster.stopAll() }
        #expect(statuses.values.allSatisfy { $0 == 0 }, "\(statuses)\n\(scenario.cluster.logs)")

        let audit = try scenario.audit()
        let window = audit.window(from: start, to: end)
        #expect(audit.duplicates.isEmpty, "\(audit.duplicates.prefix(20))")
        #expect(audit.sharedRunIDs.isEmpty, "\(audit.sharedRunIDs.prefix(10))")
        let holes = audit.holes(in: scenario.farm.names, from: start, to: end)
        #expect(holes.isEmpty, "due times silently lost: \(holes.sorted { $0.key < $1.key }.prefix(5))")
        let settled: Set = ["succeeded", "skipped", "missed"]
        #expect(
            window.allSatisfy { settled.contains($0.status) },
            "\(ScheduleAudit.statusCounts(window)): \(Set(window.filter { !settled.contains($0.status) }.map { "\($0.status) \($0.note ?? "")" }).prefix(5))"
        )
        // Due times while it was down, but for the first second, which may have been claimed before it went.
        let outage = window.filter { Double($0.dueTime) >= downAt.timeIntervalSince1970 + 1 && Double($0.dueTime) < upAt.timeIntervalSince1970 }
        // Claimed once the server answered again: the older ones by `catchUp:` (as catch-up runs,
        // or missed), the last few, younger than a catch-up's lateness, as late runs.
        #expect(
            !outage.isEmpty && outage.allSatisfy { settled.contains($0.status) } && outage.contains(where: \.isCatchUp),
            "due times of the outage are caught up: \(ScheduleAudit.statusCounts(outage))")
        let unlinked = audit.unlinked
        #expect(
            unlinked.claims.isEmpty && unlinked.runs.isEmpty,
            "claims without a run: \(unlinked.claims.prefix(10)); runs without a claim: \(unlinked.runs.prefix(10))")
        let mismatches = audit.sideEffectMismatches(try scenario.farm.effectCounts())
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        print(
            """
            MultiDaemon restart: down \(ms(upAt.timeIntervalSince(downAt))), all three claiming \(ms(recovered.timeIntervalSince(upAt))) \
            after; \(outage.count) due times of the outage caught up; \(ScheduleAudit.statusCounts(window))
            """)
    }

    @Test("SIGSTOP past the lease, then SIGCONT: nothing run twice, the paused daemon rejoins with a new epoch")
    func pausedPastItsLease() async throws {
        let scenario = try Scenario(automations: 30, behaviour: .init(runTime: .milliseconds(1500)))
        defer { scenario.end() }
        try await scenario.startAndWaitForAllThree()
        let paused = scenario.cluster["c"]
        let pausedID = try scenario.daemonID(of: paused)
        let database = scenario.database
        let stop = try await detached { () -> (at: Date, epoch: Int64?)? in
            let seen = database.poll(timeout: 30) { database in
                try database.integer("SELECT count(*) FROM claim WHERE daemonID = '\(pausedID)' AND status = 'running'") >= 3
            }
            guard seen.heldAt != nil, let pid = paused.daemon?.pid else { return nil }
            _ = kill(pid, SIGSTOP)
            return (Date(), try database.daemons().first { $0.id == pausedID }?.epoch)
        }
        let pause = try #require(stop, "no runs of the daemon to pause seen going\n\(scenario.cluster.logs)")
        let oldEpoch = try #require(pause.epoch)
        let settled = try await scenario.wait("the paused daemon's claims settled", timeout: Double(Self.lease) + 20) { database in
            try database.integer("SELECT count(*) FROM daemon WHERE id = '\(pausedID)' AND settledAt IS NOT NULL") == 1
        }
        // Wall time: the stopped daemon's lease runs out on the PostgreSQL server's clock.
        try await Task.sleep(until: Int64(pause.at.timeIntervalSince1970) + Self.lease + 5)
        _ = kill(paused.daemon?.pid ?? 0, SIGCONT)
        let resumedAt = Date()
        let rejoined = try await scenario.wait("the resumed daemon claiming with a new epoch", timeout: 30) { database in
            try database.integer("SELECT count(*) FROM claim WHERE daemonID = '\(pausedID)' AND epoch > \(oldEpoch)") > 0
        }
        // Wall time: due times after the resumed daemon rejoined pass on the real clock.
        try await Task.sleep(for: .seconds(5))
        let statuses = try await detached { scenario.cluster.stopAll() }
        #expect(statuses.values.allSatisfy { $0 == 0 }, "\(statuses)\n\(scenario.cluster.logs)")

        let pausedLog = paused.daemon?.log ?? ""
        // A run settled while the daemon was paused is named so, never as a database error.
        #expect(!pausedLog.contains("cannot record the start"), "\(pausedLog)")

        let audit = try scenario.audit()
        #expect(audit.duplicates.isEmpty, "\(audit.duplicates.prefix(20))")
        #expect(audit.sharedRunIDs.isEmpty, "\(audit.sharedRunIDs.prefix(10))")
        let fenced = audit.claims.filter { $0.daemonID == pausedID && $0.epoch == oldEpoch }
        let lateStarts = fenced.filter { ($0.startedAt ?? 0) > settled.timeIntervalSince1970 }
        #expect(
            lateStarts.isEmpty, "claims of the old epoch started after another daemon settled them: \(lateStarts.map { "\($0.name)@\($0.dueTime)" })")
        #expect(!fenced.contains { $0.status == "running" || $0.status == "queued" })
        let interrupted = fenced.filter { $0.status == "interrupted" }
        #expect(!interrupted.isEmpty, "the claims running at the pause were settled as interrupted")
        let runs = Dictionary(audit.runs.map { ($0.id, $0) }) { first, _ in first }
        let rewritten = interrupted.compactMap { $0.runID.flatMap { runs[$0] } }.filter { $0.status != "interrupted" }
        #expect(rewritten.isEmpty, "runs of settled claims recorded as \(rewritten.map(\.status)) after the daemon resumed")
        let newEpochs = Set(audit.claims.filter { $0.daemonID == pausedID && ($0.epoch ?? 0) > oldEpoch }.compactMap(\.epoch))
        #expect(newEpochs.count == 1, "the resumed daemon holds one new epoch: \(newEpochs)")
        let mismatches = audit.sideEffectMismatches(try scenario.farm.effectCounts())
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        print(
            """
            MultiDaemon SIGSTOP: settled \(ms(settled.timeIntervalSince(pause.at))) after the pause; \
            rejoined \(ms(rejoined.timeIntervalSince(resumedAt))) after SIGCONT with epoch \(newEpochs.sorted()) (was \(oldEpoch)); \
            \(interrupted.count) claims interrupted
            """)
    }

    @Test("overlap: skip holds across daemons: a 3-second workflow due every second never runs twice at once")
    func globalOverlap() async throws {
        let scenario = try Scenario(automations: 1, behaviour: .init(overlap: "skip", catchUp: "none", runTime: .seconds(3)))
        defer { scenario.end() }
        try scenario.cluster.startAll()
        try await scenario.wait("three daemons registered", timeout: 60) { database in
            try database.integer("SELECT count(*) FROM daemon WHERE stoppedAt IS NULL") == 3
        }
        // Wall time: twenty seconds of due times of the real daemons, whose overlap holds across them.
        try await Task.sleep(for: .seconds(20))
        let statuses = try await detached { scenario.cluster.stopAll() }
        #expect(statuses.values.allSatisfy { $0 == 0 }, "\(statuses)\n\(scenario.cluster.logs)")

        let audit = try scenario.audit()
        let runs = audit.runs.filter { $0.status == "succeeded" }.sorted { $0.startedAt < $1.startedAt }
        #expect(runs.count >= 4, "\(ScheduleAudit.statusCounts(audit.claims))")
        let overlapping = zip(runs, runs.dropFirst()).filter { earlier, later in later.startedAt < earlier.endedAt ?? .infinity }
        #expect(
            overlapping.isEmpty, "runs at once: \(overlapping.map { "\($0.0.id) until \($0.0.endedAt ?? 0), \($0.1.id) from \($0.1.startedAt)" })")
        let ran = audit.claims.filter { $0.runID != nil }
        #expect(audit.claims.filter { $0.runID == nil }.allSatisfy { $0.status == "skipped" }, "\(ScheduleAudit.statusCounts(audit.claims))")
        #expect(audit.duplicates.isEmpty)
        let files = try scenario.farm.effects(of: "tick-001")
        #expect(files.count <= ran.count && files.count >= runs.count, "\(files.count) files for \(ran.count) runs started")
        print("MultiDaemon overlap: \(runs.count) runs, by \(Set(ran.map(\.daemonID)).count) daemons; \(ScheduleAudit.statusCounts(audit.claims))")
    }
}

/// A farm, a database, and three machines running daemons on them.
private struct Scenario: Sendable {
    let farm: AutomationFarm
    let cluster: DaemonCluster
    let database: SharedDatabase

    init(automations: Int, behaviour: AutomationFarm.Behaviour = .init(), server: PostgresServer? = nil, arguments: [String] = []) throws {
        let server = try server ?? PostgresServer.shared()
        let url = try server.makeDatabase()
        let binaries = try #require(PostgresServer.binaries)
        farm = try AutomationFarm(count: automations, behaviour: behaviour)
        cluster = try DaemonCluster(farm: farm, databaseURL: url, arguments: ["--log-level", "warning"] + arguments)
        database = SharedDatabase(url: url, psql: binaries.appendingPathComponent("psql"), server: server)
    }

    /// Starts the three daemons and waits until each has claimed a due time.
    func startAndWaitForAllThree() async throws {
        try cluster.startAll()
        try await wait("claims by all three daemons", timeout: 90) { database in
            try database.integer("SELECT count(DISTINCT daemonID) FROM claim") == 3
        }
    }

    /// Waits, off the cooperative pool, for a condition on the database; when it never holds
    /// the test fails with the daemons' logs.
    @discardableResult
    func wait(_ what: String, timeout: TimeInterval, _ condition: @escaping @Sendable (SharedDatabase) throws -> Bool) async throws -> Date {
        let database = database
        let result = try await detached { database.poll(timeout: timeout, condition) }
        guard let heldAt = result.heldAt else {
            Issue.record("timed out after \(Int(timeout)) s waiting for \(what)\(result.reason)\n\(cluster.logs)")
            throw TimedOut()
        }
        return heldAt
    }

    /// Waits until every due time up to `end` has ended, so that stopping the daemons next
    /// cancels none of the window the test audits (a busy machine runs a backlog later).
    func waitUntilEnded(through end: Int64) async throws {
        _ = try await wait("the due times up to \(end) ended", timeout: 60) { database in
            try database.integer("SELECT count(*) FROM claim WHERE status IN ('queued', 'running') AND dueTime <= \(end)") == 0
        }
    }

    /// The daemon id that a machine's daemon registered with.
    func daemonID(of machine: DaemonCluster.Machine) throws -> String {
        let pid = Int(machine.daemon?.pid ?? 0)
        return try #require(try database.daemons().last { $0.pid == pid }?.id, "no daemon row with pid \(pid)")
    }

    func audit() throws -> ScheduleAudit {
        ScheduleAudit(claims: try database.claims(), runs: try database.runs())
    }

    /// Kills what still runs and removes the machines' folders.
    func end() {
        cluster.killAll()
        cluster.remove()
    }
}

extension Task where Success == Never, Failure == Never {
    /// Sleeps until a second since 1970.
    static func sleep(until second: Int64) async throws {
        let remaining = Double(second) - Date().timeIntervalSince1970
        if remaining > 0 { try await sleep(for: .milliseconds(Int(remaining * 1000))) }
    }
}

/// Seconds as milliseconds, for the figures the tests print.
private func ms(_ seconds: Double) -> String {
    seconds.isNaN ? "—" : "\(Int((seconds * 1000).rounded())) ms"
}

/// A wait that never ended; the test already recorded why.
private struct TimedOut: Error {}
