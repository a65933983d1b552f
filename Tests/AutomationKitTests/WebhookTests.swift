import Foundation
import IntentKit
import ShortcutsTestSupport
import Testing
import WorkflowKit

@testable import AutomationKit

/// What a web server needs of an automation's `webhook:`: the automation by name (unique in
/// its folder), the inputs of a request's body checked before any run, a run that reports
/// its id as soon as it is recorded, and the rate.
@Suite("Webhooks")
struct WebhookTests {
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("automation-webhooks-\(UUID().uuidString)")

    private func write(_ name: String, _ yaml: String) throws -> URL {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let url = root.appendingPathComponent(name)
        try yaml.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    private func automation(_ yaml: String) throws -> (Automation, Workflow) {
        let url = try write("hook-\(UUID().uuidString).yaml", yaml)
        let workflow = try WorkflowLoader.load(contentsOf: url)
        return (try #require(Automation(workflow: workflow, file: url)), workflow)
    }

    @Test("A folder gives its webhooks by name; a second file with a taken name is a located problem until the first goes")
    func namesInAFolder() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try write("a-deploy.yaml", "automation:\n  webhook: deploy\nsteps: [ { show: a } ]\n")
        _ = try write("b-deploy.yaml", "automation:\n  webhook: { name: deploy, rate: 1/m }\nsteps: [ { show: b } ]\n")
        _ = try write("c-sort.yaml", "automation:\n  watch: { path: inbox }\n  enabled: false\nsteps: [ { show: c } ]\n")
        var folder = AutomationFolder.load(root, catalog: IntentCatalog(apps: []))
        #expect(folder.automations.map(\.file.lastPathComponent) == ["a-deploy.yaml", "c-sort.yaml"])
        #expect(folder.webhooks.mapValues(\.file.lastPathComponent) == ["deploy": "a-deploy.yaml"])
        #expect(folder.watches.map(\.name) == ["c-sort"])
        #expect(folder.automations.map(\.triggers) == [[.webhook], [.file]])
        let problem = try #require(folder.problems.first)
        #expect(folder.problems.count == 1)
        #expect(
            problem.rendered().hasSuffix(
                """
                b-deploy.yaml:2:20: error: webhook 'deploy' is already the webhook of a-deploy.yaml (line 2)
                    2 |   webhook: { name: deploy, rate: 1/m }
                      |                    ^~~~~~
                help: a webhook's name is unique in its folder, since /hooks/deploy runs one workflow: rename one of them
                """))

        try FileManager.default.removeItem(at: root.appendingPathComponent("a-deploy.yaml"))
        let changes = folder.reload()
        let second = try #require(folder.webhooks["deploy"])
        #expect(second.file.lastPathComponent == "b-deploy.yaml")
        #expect(second.webhook?.rate.description == "1/m")
        #expect(changes.keys.contains(second.key), "the file whose name was freed counts as changed")
        #expect(folder.problems.isEmpty)
    }

    @Test("A body is a JSON object of inputs; an empty body gives none")
    func objectBodies() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (automation, workflow) = try automation(
            """
            input:
              title: String
              count: { type: Int, default: 1 }
            automation:
              webhook: add
            steps: [ { show: "${input.title}" } ]
            """)
        let catalog = IntentCatalog(apps: [])
        func inputs(_ body: String) throws(DiagnosticError) -> [String: IntentValue] {
            try automation.webhookInputs(fromBody: Data(body.utf8), workflow: workflow, catalog: catalog)
        }
        #expect(try inputs(#"{"title": "Emma", "count": 3}"#) == ["title": .string("Emma"), "count": .int(3)])
        func problem(_ body: String) -> String {
            do {
                _ = try inputs(body)
                return ""
            } catch {
                return error.rendered()
            }
        }
        let file = workflow.fileName
        #expect(
            problem("") == """
                \(file):2:3: error: missing input 'title' (String)
                    2 |   title: String
                      |   ^~~~~
                help: give 'title' a value
                """)
        #expect(
            problem(#"{"title": "Emma", "count": "many", "colour": "red"}"#).contains(
                "error: input 'count' expects Int: cannot use String 'many' as Int (write a whole number such as 3)"))
        #expect(problem(#"{"title": "Emma", "colour": "red"}"#).contains("error: '\(file)' has no input 'colour'"))
        #expect(
            problem("title=Emma") == """
                \(file):5:12: error: the request body is not JSON
                    5 |   webhook: add
                      |            ^~~
                help: send a JSON object of the workflow's inputs, such as {"title": "Emma"}
                """)
        #expect(
            problem(#"["Emma"]"#).contains(
                "error: the request body is JSON of another kind (List), not an object of input values"))
        #expect(throws: DiagnosticError.self) {
            try automation.webhookInputs(fromBody: Data([0xFF, 0xFE]), workflow: workflow, catalog: catalog)
        }
    }

    @Test("An input named body receives the whole body: parsed JSON, or the text as sent for String")
    func wholeBody() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let catalog = IntentCatalog(apps: [])
        let (json, jsonWorkflow) = try automation("input:\n  body: Any\nautomation:\n  webhook: raw\nsteps: []\n")
        #expect(
            try json.webhookInputs(fromBody: Data(#"[1, {"a": true}]"#.utf8), workflow: jsonWorkflow, catalog: catalog)
                == ["body": .list([.int(1), .dictionary(["a": .bool(true)])])])
        let (text, textWorkflow) = try automation("input:\n  body: String\nautomation:\n  webhook: text\nsteps: []\n")
        #expect(try text.webhookInputs(fromBody: Data("a=1&b=2".utf8), workflow: textWorkflow, catalog: catalog) == ["body": .string("a=1&b=2")])
    }

    @Test("runNow records the run with its trigger and inputs, and reports its id before it ends")
    func runNowReportsTheRunAtOnce() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (automation, workflow) = try automation(
            """
            input:
              title: String
            automation:
              webhook: add
              retry: { attempts: 2 }
            steps:
              - wait: 300ms
              - if: { value: "${input.title}", equalTo: fail }
                then: [ { repeat: { count: -1 }, steps: [] } ]
            output: "added ${input.title}"
            """)
        // The `wait:` and the retry's backoff pass on a manual clock, advanced as they wait.
        let clock = ManualClock()
        let history = try RunHistory(path: root.appendingPathComponent("runs.sqlite").path, clock: clock)
        let seen = SeenRuns(history: history)
        let outcome = await clock.advancing {
            await automation.runNow(
                inputs: ["title": .string("Emma")], trigger: "webhook", workflow: workflow, catalog: IntentCatalog(apps: []), history: history,
                secrets: nil, started: { runID, attempt in seen.note(runID, attempt: attempt) }, clock: clock)
        }
        #expect(outcome.status == .succeeded)
        #expect(outcome.output == .string("added Emma"))
        #expect(seen.all.map(\.attempt) == [1])
        #expect(seen.all.map(\.status) == [.running], "the run was recorded as started when its id was reported")
        let recorded = try history.run(matching: try #require(outcome.runIDs.first)).run
        #expect(recorded.trigger == "webhook")
        #expect(try IntentValue.fromJSON(try #require(recorded.inputs)) == .dictionary(["title": .string("Emma")]))

        let failing = SeenRuns(history: history)
        let failed = await clock.advancing {
            await automation.runNow(
                inputs: ["title": .string("fail")], trigger: "webhook", workflow: workflow, catalog: IntentCatalog(apps: []), history: history,
                secrets: nil, started: { runID, attempt in failing.note(runID, attempt: attempt) }, clock: clock)
        }
        #expect(failed.status == .failed)
        #expect(failing.all.map(\.attempt) == [1, 2])
        #expect(failed.runIDs == failing.all.map(\.runID))
    }

    @Test("The rate admits bursts of N, then one request per N-th of the unit")
    func rate() throws {
        let clock = ManualClock()
        let limiter = WebhookRateLimiter(clock: clock)
        let rate = try #require(AutomationBlock.Rate(parsing: "3/s"))
        #expect((0..<3).map { _ in limiter.admit(name: "deploy", rate: rate) } == [nil, nil, nil])
        let wait = try #require(limiter.admit(name: "deploy", rate: rate))
        #expect(wait == .milliseconds(334))
        #expect(limiter.admit(name: "other", rate: rate) == nil, "each webhook has its own allowance")
        clock.advance(by: .milliseconds(340))
        #expect(limiter.admit(name: "deploy", rate: rate) == nil)
        #expect(limiter.admit(name: "deploy", rate: rate) != nil)
        clock.advance(by: .seconds(10))
        #expect(limiter.admit(name: "deploy", rate: rate) == nil, "a bucket refills up to N")
        #expect(limiter.admit(name: "deploy", rate: rate) == nil)
        #expect(limiter.admit(name: "deploy", rate: rate) == nil)
        #expect(limiter.admit(name: "deploy", rate: rate) != nil)
    }
}

/// The runs a `started` callback reported, with their status in the history at that moment.
private final class SeenRuns: @unchecked Sendable {
    private let lock = NSLock()
    private let history: RunHistory
    private var runs: [(runID: String, attempt: Int, status: RunHistory.Status?)] = []

    init(history: RunHistory) { self.history = history }

    func note(_ runID: String, attempt: Int) {
        let status = try? history.run(matching: runID).run.status
        lock.withLock { runs.append((runID, attempt, status)) }
    }

    var all: [(runID: String, attempt: Int, status: RunHistory.Status?)] { lock.withLock { runs } }
}
