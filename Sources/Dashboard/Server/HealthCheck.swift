#if Web
    import Foundation
    import Hummingbird
    import WorkflowKit

    /// `/healthz`: whether the stores answer, as JSON, with 200 when both do and 503 otherwise.
    /// It needs no token and tells nothing but that: the reasons go to the log.
    ///
    /// ```json
    /// {"automations":"ok","runs":"ok","status":"ok"}
    /// ```
    enum HealthCheck {
        static func response(site: DashboardSite) async throws -> Response {
            let configuration = site.configuration
            var report: [String: String] = [:]
            do {
                _ = try await offload { try configuration.history.runs(RunHistory.Filter(limit: 1)) }
                report["runs"] = "ok"
            } catch {
                report["runs"] = "unavailable"
                site.logger.warning("health check: the run history does not answer: \(error)")
            }
            do {
                _ = try await offload { try configuration.automations.claims(of: "", limit: 1) }
                report["automations"] = "ok"
            } catch {
                report["automations"] = "unavailable"
                site.logger.warning("health check: the automations' state does not answer: \(error)")
            }
            let isHealthy = report.values.allSatisfy { $0 == "ok" }
            report["status"] = isHealthy ? "ok" : "unavailable"
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let json = String(decoding: (try? encoder.encode(report)) ?? Data("{}".utf8), as: UTF8.self)
            return .text(json + "\n", status: isHealthy ? .ok : .serviceUnavailable, contentType: "application/json")
        }
    }
#endif
