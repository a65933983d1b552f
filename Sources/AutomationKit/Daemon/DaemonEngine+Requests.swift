import Clockwork
import Foundation
import IntentKit
import WorkflowKit

/// How a run request ended, to record in the store.
struct RunRequestCompletion: Sendable {
    var id: Int64
    var status: RunRequest.Status
    var runID: String?
    var output: String?
    var error: String?
}

/// Run requests: runs of automations asked for outside their triggers (`shortcuts
/// automations run` with a shared store), taken from the store's queue by whichever live
/// daemon with the automation enabled polls first.
extension DaemonEngine {
    /// How many requests a daemon takes at once.
    static let requestBatch = 4

    /// Takes the queued requests of the automations this daemon schedules, and runs them.
    func takeRunRequests() {
        guard let lease = currentLease else { return }
        let keys = condition.withLock { enabledAutomations.values.map(\.storeKey) }
        guard !keys.isEmpty else { return }
        let requests: [RunRequest]
        do {
            requests = try store.takeRunRequests(keys: keys.sorted(), limit: Self.requestBatch, lease: lease)
        } catch {
            return
        }
        for request in requests {
            let refused = condition.withLock { () -> String? in
                guard lifecycle == .running else { return "the daemon was stopping" }
                guard let automation = enabledAutomations.values.first(where: { $0.storeKey == request.automationKey })?.automation else {
                    return "the automation is no longer enabled in the daemon's folder"
                }
                requestTasks[request.id] = Task.detached { [self] in
                    let completion = await run(request, automation: automation)
                    requestCompletions.record(completion)
                    condition.withLock {
                        requestTasks[request.id] = nil
                        recordRunning()
                        condition.broadcast()
                    }
                }
                recordRunning()
                return nil
            }
            if let refused {
                requestCompletions.record(.init(id: request.id, status: .cancelled, runID: nil, output: nil, error: "not run: \(refused)"))
            }
        }
    }

    /// Runs a requested run with the automation's retry and timeout, headless.
    private func run(_ request: RunRequest, automation: Automation) async -> RunRequestCompletion {
        let name = automation.name
        func failed(_ message: String) -> RunRequestCompletion {
            log("\(name): requested run \(request.id) failed:\n\(message)", level: .error)
            return RunRequestCompletion(id: request.id, status: .failed, runID: nil, output: nil, error: message)
        }
        var inputs: [String: IntentValue] = [:]
        if let text = request.inputs {
            guard case .dictionary(let values)? = try? IntentValue.fromJSON(text) else {
                return failed("the request's inputs are not a JSON object: \(text)")
            }
            inputs = values
        }
        let workflow: Workflow
        do {
            workflow = try automation.loadWorkflow(catalog: configuration.catalog)
        } catch {
            return failed(error.rendered())
        }
        var lastError: String?
        var runID = ""
        for attempt in 1...automation.attempts {
            if attempt > 1, let backoff = automation.backoff {
                do { try await clock.local.sleep(for: backoff) } catch { break }
            }
            runID = Self.newRunID()
            log("\(name): requested run \(request.id) (\(request.trigger)), run \(runID.prefix(8)) started")
            let outcome = await automation.attempt(
                workflow, inputs: inputs, runID: runID, catalog: configuration.catalog, history: history, secrets: configuration.secrets,
                locale: configuration.locale, trigger: request.trigger, isLast: attempt == automation.attempts, clock: clock.local,
                recordsLater: { [historyWrites] end in historyWrites.record(.record(end)) }, metrics: metrics.runs,
                show: { [self] text in log("\(name): \(text)") })
            switch outcome {
            case .succeeded(let output):
                log("\(name): run \(runID.prefix(8)) succeeded")
                return RunRequestCompletion(id: request.id, status: .succeeded, runID: runID, output: output.jsonText, error: nil)
            case .cancelled:
                return RunRequestCompletion(id: request.id, status: .cancelled, runID: runID, output: nil, error: "the run was cancelled")
            case .timedOut:
                lastError = "timed out after \(Self.format(automation.timeout ?? .zero))"
            case .failed(let message):
                lastError = message
            }
            if Task.isCancelled { break }
        }
        log("\(name): requested run \(request.id), run \(runID.prefix(8)) failed:\n\(lastError ?? "cancelled")", level: .error)
        return RunRequestCompletion(id: request.id, status: .failed, runID: runID, output: nil, error: lastError)
    }

    /// Records how run requests ended.
    func complete(_ completions: [RunRequestCompletion]) throws {
        for completion in completions {
            try store.completeRunRequest(
                id: completion.id, status: completion.status, runID: completion.runID, output: completion.output, error: completion.error)
        }
    }
}
