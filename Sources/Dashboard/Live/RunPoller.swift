#if Web
    import Clockwork
    import Foundation
    import WorkflowKit

    /// Reads what changed in the run history every ``DashboardConfiguration/pollInterval`` and
    /// hands it to the ``RunBroadcaster``: runs that started (recorded by any process on the
    /// store), and runs that ended or were settled. It sends a heartbeat every
    /// ``DashboardConfiguration/heartbeatInterval``.
    ///
    /// Each read asks for the runs that started since the latest start seen, less a margin (so that
    /// a run recorded late, or by a machine whose clock is a little behind, is not missed), and for
    /// the runs seen running, by id. A run is sent when it is new or its status or end changed.
    struct RunPoller: Sendable {
        /// How far before the latest start seen each read looks again.
        static let margin: TimeInterval = 30
        /// The most runs one read takes.
        static let readLimit = 1_000

        let configuration: DashboardConfiguration
        let broadcaster: RunBroadcaster

        private struct Seen {
            var status: RunHistory.Status
            var endedAt: Date?
            var startedAt: Date
        }

        func run() async {
            var seen: [String: Seen] = [:]
            var latestStart: Date?
            var isBaseline = true
            var isFailing = false
            let clock = configuration.clock
            var lastHeartbeat = clock.now()
            let history = configuration.history
            while !Task.isCancelled {
                let since = (latestStart ?? clock.now()).addingTimeInterval(-Self.margin)
                let watched = seen.filter { $0.value.status == .running }.map(\.key)
                let readsRunning = isBaseline
                do {
                    let (recent, others) = try await offload {
                        let recent = try history.runs(RunHistory.Filter(since: since, limit: Self.readLimit))
                        let recentIDs = Set(recent.map(\.id))
                        let running = readsRunning ? try history.runs(RunHistory.Filter(status: .running)) : []
                        return (recent, try history.runs(ids: watched.filter { !recentIDs.contains($0) }) + running)
                    }
                    if isFailing {
                        configuration.logger.notice("live updates read the run history again")
                        isFailing = false
                    }
                    var changed: [RunHistory.Run] = []
                    for run in recent + others {
                        let previous = seen[run.id]
                        if previous == nil || previous?.status != run.status || previous?.endedAt != run.endedAt {
                            if !isBaseline { changed.append(run) }
                            seen[run.id] = Seen(status: run.status, endedAt: run.endedAt, startedAt: run.startedAt)
                        }
                    }
                    latestStart = max(latestStart ?? .distantPast, recent.map(\.startedAt).max() ?? .distantPast)
                    if latestStart == .distantPast { latestStart = nil }
                    seen = seen.filter { $0.value.status == .running || $0.value.startedAt >= since }
                    isBaseline = false
                    if !changed.isEmpty { try await publish(changed.sorted { $0.startedAt < $1.startedAt }) }
                } catch {
                    if !isFailing {
                        configuration.logger.warning("live updates cannot read the run history: \(error)")
                        isFailing = true
                    }
                }
                if clock.elapsed(since: lastHeartbeat) >= configuration.heartbeatInterval {
                    broadcaster.send(.heartbeat)
                    lastHeartbeat = clock.now()
                }
                do { try await clock.sleep(for: configuration.pollInterval) } catch { return }
            }
        }

        /// Sends the changed runs, then the last day's counts.
        private func publish(_ runs: [RunHistory.Run]) async throws {
            let mask = configuration.secrets?.mask() ?? .none
            let times = TimeText(zone: configuration.timeZone, clock: configuration.clock)
            for run in runs { broadcaster.send(.run(RunRow(mask.mask(run), times: times))) }
            let history = configuration.history
            let now = configuration.clock.now()
            let counts = try await offload { try history.statusCounts(from: now.addingTimeInterval(-86_400), to: now.addingTimeInterval(1)) }
            broadcaster.send(.summary(StatusCount.all(counts)))
        }
    }
#endif
