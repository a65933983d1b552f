import AutomationKit
import Cron
import Foundation
import GRDB
import IntentKit
import LibraryApp
import SeededRandom

#if canImport(Glibc)
    import Glibc
#endif

/// The automation daemon with thousands of automations, in this process:
///
/// 1. writes `automations` workflow files: `everySecond` of them every second (`* * * * * *`,
///    disabled at first), the others daily, weekday, weekly, monthly and yearly schedules at
///    fixed times in eight time zones, away from the current and next hour so that none comes
///    due during the benchmark;
/// 2. starts the daemon (load time, RSS), then measures idle CPU for `idleSeconds`, against a
///    per-second polling loop over the same schedules measured for as long in the same run;
/// 3. enables the every-second files (the daemon reloads them through inotify) and lets them
///    run for `seconds`: lateness percentiles from the due time to the run's recorded start
///    (the claim's `startedAt`, the run history's `startedAt`) and to its first step, peak RSS, CPU;
/// 4. stops the daemon and checks the claims: each due time once, none left pending.
///
///     swift run -c release shortcuts-bench daemon [seconds] [automations] [everySecond] [idleSeconds]
enum DaemonBenchmark {
    static func run(arguments: [String]) async throws {
        let seconds = arguments.first.flatMap(Double.init) ?? 180
        let total = arguments.dropFirst().first.flatMap(Int.init) ?? 10_000
        let everySecond = arguments.dropFirst(2).first.flatMap(Int.init) ?? 300
        let idleSeconds = arguments.dropFirst(3).first.flatMap(Double.init) ?? 10

        let root = FileManager.default.temporaryDirectory.appendingPathComponent("shortcuts-bench-daemon-\(UUID().uuidString)")
        let workflows = root.appendingPathComponent("Workflows")
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }

        let rssBefore = ProcessStatistics.residentMegabytes()
        let schedules = try writeWorkflows(total: total, everySecond: everySecond, in: workflows)
        print(
            "daemon: \(total) automations (\(everySecond) every second, \(total - everySecond) daily to yearly in 8 time zones), "
                + "\(String(format: "%.0f", seconds)) s of every-second runs")

        let clock = ContinuousClock()
        let daemon = AutomationDaemon(
            .init(
                workflows: workflows, catalog: IntentCatalog(apps: [LibraryApp.app]), home: home,
                grace: .seconds(5)))
        let loading = try clock.measure { try daemon.start() }
        let rssLoaded = ProcessStatistics.residentMegabytes()
        print(
            String(
                format: "  load: %.2f s for %d files, %d scheduled; RSS %.1f MB before, %.1f MB loaded (%.1f KB per automation)",
                WorkflowBenchmark.seconds(loading), total, daemon.scheduledCount, rssBefore, rssLoaded,
                (rssLoaded - rssBefore) * 1024 / Double(total)))

        // Idle: nothing is due; the daemon sleeps on a condition.
        try await Task.sleep(for: .seconds(1))
        let idleCPU = try await ProcessStatistics.cpuShare(over: idleSeconds)
        let pollingCPU = PollingBaseline.cpuShare(schedules: schedules, over: idleSeconds)
        print(
            String(
                format: "  idle CPU: %.4f %% of a core over %.0f s; a per-second polling loop over the same schedules: %.3f %% (×%.0f); goal ≈ 0",
                idleCPU * 100, idleSeconds, pollingCPU * 100, pollingCPU / max(idleCPU, 1e-6)))

        // Busy: enable the every-second automations; the folder watcher reloads them.
        let enabled = Date()
        for index in 0..<everySecond {
            try pulse(index, enabled: true).write(to: workflows.appendingPathComponent(pulseName(index)), atomically: true, encoding: .utf8)
        }
        var peakRSS = ProcessStatistics.residentMegabytes()
        let cpuStart = ProcessStatistics.cpuSeconds()
        let busyStart = Date()
        while Date().timeIntervalSince(busyStart) < seconds {
            try await Task.sleep(for: .seconds(1))
            peakRSS = max(peakRSS, ProcessStatistics.residentMegabytes())
        }
        let busyCPU = (ProcessStatistics.cpuSeconds() - cpuStart) / Date().timeIntervalSince(busyStart)
        await daemon.stop()

        let store = try DatabaseQueue(path: home.appendingPathComponent("automations.sqlite").path)
        try await store.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS history", arguments: [home.appendingPathComponent("runs.sqlite").path])
        }
        let (lateness, firstSteps, statuses, duplicates, pending) = try await store.read { db in
            let since = Int64(enabled.timeIntervalSince1970) + 2
            let lateness = try Double.fetchAll(
                db,
                sql: """
                    SELECT startedAt - dueTime FROM claim WHERE startedAt IS NOT NULL AND dueTime > ? ORDER BY 1
                    """, arguments: [since])
            let firstSteps = try Double.fetchAll(
                db,
                sql: """
                    SELECT step.startedAt - claim.dueTime FROM claim JOIN history.step AS step ON step.runID = claim.runID AND step.position = 0
                    WHERE claim.dueTime > ? ORDER BY 1
                    """, arguments: [since])
            let statuses = try Row.fetchAll(db, sql: "SELECT status, count(*) AS count FROM claim GROUP BY status ORDER BY 2 DESC")
                .map { "\($0["status"] as String) \($0["count"] as Int)" }
            let duplicates =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM (SELECT 1 FROM claim GROUP BY automationKey, dueTime HAVING count(*) > 1)
                        """) ?? 0
            let pending = try Int.fetchOne(db, sql: "SELECT count(*) FROM claim WHERE status IN ('queued', 'running')") ?? 0
            return (lateness, firstSteps, statuses, duplicates, pending)
        }
        print(
            String(
                format:
                    "  lateness, due → run start (recorded started): p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d runs; goal p99 < 50 ms (p99 = %.2f × goal)",
                Percentile.milliseconds(0.5, of: lateness), Percentile.milliseconds(0.99, of: lateness), (lateness.last ?? .nan) * 1000,
                lateness.count,
                Percentile.milliseconds(0.99, of: lateness) / 50))
        print(
            String(
                format: "  lateness, due → first step executed: p50 %.1f ms, p99 %.1f ms, max %.1f ms (the %d runs of an instant share the cores)",
                Percentile.milliseconds(0.5, of: firstSteps), Percentile.milliseconds(0.99, of: firstSteps), (firstSteps.last ?? .nan) * 1000,
                everySecond))
        print(
            String(
                format: "  RSS: peak %.1f MB while running (%.1f MB loaded); goal < 60 MB (peak = %.2f × goal)",
                peakRSS, rssLoaded, peakRSS / 60))
        print(
            String(
                format: "  CPU while running %d automations every second: %.1f %% of a core (%.0f µs per run)",
                everySecond, busyCPU * 100, busyCPU / Double(everySecond) * 1e6))
        print("  claims: \(statuses.joined(separator: ", ")); due times claimed twice: \(duplicates); left pending after stop: \(pending)")
    }

    static func pulseName(_ index: Int) -> String { String(format: "pulse-%04d.yaml", index) }

    static func pulse(_ index: Int, enabled: Bool) -> String {
        """
        name: Pulse \(index)
        automation:
          schedule: "* * * * * *"
          enabled: \(enabled)
        steps:
          - set: beat
            to: ${now}
        output: ${beat}

        """
    }

    /// Writes the files; returns every schedule with its zone (for the polling baseline).
    static func writeWorkflows(total: Int, everySecond: Int, in folder: URL) throws -> [(CronExpression, TimeZone)] {
        let zones = [
            "UTC", "Europe/Paris", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "America/Los_Angeles",
            "Europe/London", "Asia/Kolkata"
        ].compactMap(TimeZone.init(identifier:))
        var generator = SeededRandomNumberGenerator(seed: 42)
        var schedules: [(CronExpression, TimeZone)] = []
        for index in 0..<everySecond {
            try pulse(index, enabled: false).write(to: folder.appendingPathComponent(pulseName(index)), atomically: true, encoding: .utf8)
            schedules.append((try CronExpression("* * * * * *"), .gmt))
        }
        let now = Date()
        for index in everySecond..<total {
            let zone = zones[index % zones.count]
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let hourNow = calendar.component(.hour, from: now)
            var hour = Int.random(in: 0..<24, using: &generator)
            while hour == hourNow || hour == (hourNow + 1) % 24 { hour = Int.random(in: 0..<24, using: &generator) }
            let minute = Int.random(in: 0..<60, using: &generator)
            let shapes = [
                "\(minute) \(hour) * * *", "\(minute) \(hour) * * MON-FRI", "\(minute) \(hour) * * SUN",
                "\(minute) \(hour) 1 * *", "\(minute) \(hour) L * *", "0 \(hour) 1 1 *", "*/15 \(hour) * * *"
            ]
            let schedule = shapes[index % shapes.count]
            let text = """
                name: Report \(index)
                automation:
                  schedule: "\(schedule)"
                  timeZone: \(zone.identifier)
                  overlap: \(["skip", "queue", "parallel", "replace"][index % 4])
                  catchUp: \(["none", "latest", "all"][index % 3])
                  timeout: 10m
                steps:
                  - show: "Report \(index) at ${now}"

                """
            try text.write(to: folder.appendingPathComponent(String(format: "report-%05d.yaml", index)), atomically: true, encoding: .utf8)
            schedules.append((try CronExpression(schedule), zone))
        }
        return schedules
    }
}

/// What a scheduler that wakes every second and checks every schedule costs while idle.
enum PollingBaseline {
    static func cpuShare(schedules: [(CronExpression, TimeZone)], over seconds: Double) -> Double {
        let start = ProcessStatistics.cpuSeconds()
        let began = Date()
        var due = 0
        while Date().timeIntervalSince(began) < seconds {
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            for (schedule, zone) in schedules where schedule.matches(now, in: zone) { due += 1 }
            Thread.sleep(until: now.addingTimeInterval(1))
        }
        if due < 0 { print(due) }
        return (ProcessStatistics.cpuSeconds() - start) / Date().timeIntervalSince(began)
    }
}

/// CPU time and resident memory of this process, from the kernel.
enum ProcessStatistics {
    /// User plus system CPU seconds used so far by every thread.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// The share of one core used over a period, measured while sleeping through it.
    static func cpuShare(over seconds: Double) async throws -> Double {
        let start = cpuSeconds()
        let began = Date()
        try await Task.sleep(for: .seconds(seconds))
        return (cpuSeconds() - start) / Date().timeIntervalSince(began)
    }

    /// `VmRSS` of `/proc/self/status`, in megabytes.
    static func residentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return .nan }
        return kilobytes / 1024
    }
}
