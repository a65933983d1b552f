import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// The `webhook:` and `watch:` triggers of the `automation:` block: what loads, and every
/// mistake located with a caret and, where a name is mistyped, a "did you mean".
@Suite("Automation triggers")
struct WorkflowValidatorTriggerTests {
    private func rendered(_ yaml: String) throws -> String {
        let workflow = try WorkflowLoader.load(text: yaml, fileName: "hooks.yaml")
        let (diagnostics, sources) = WorkflowValidator(catalog: IntentCatalog(apps: [])).check(workflow)
        return DiagnosticRenderer(sources: sources).render(diagnostics)
    }

    /// The rendered errors of a file that does not load.
    private func loadErrors(_ yaml: String) -> String {
        do {
            _ = try WorkflowLoader.load(text: yaml, fileName: "hooks.yaml")
            return ""
        } catch {
            return error.rendered()
        }
    }

    @Test("The short and long forms load, with their defaults")
    func forms() throws {
        let short = try WorkflowLoader.load(
            text: "automation:\n  webhook: deploy-site\n  watch: { path: inbox }\nsteps: [ { show: hi } ]\n", fileName: "hooks.yaml")
        let block = try #require(short.automation)
        #expect(block.schedule == nil)
        #expect(block.webhook?.name.value == "deploy-site")
        #expect(block.webhook?.secret == "WEBHOOK_DEPLOY_SITE")
        #expect(block.webhook?.rate == AutomationBlock.Rate(count: 10, unit: .second))
        #expect(block.watch?.events == [.created])
        #expect(block.watch?.pattern == nil)
        #expect(block.watch?.debounce == .seconds(1))

        let long = try WorkflowLoader.load(
            text: """
                automation:
                  schedule: "0 9 * * *"
                  webhook: { name: deploy, secret: DEPLOY_HOOK, rate: 100/m }
                  watch:
                    path: ~/Downloads
                    events: [modified, deleted, created, modified]
                    pattern: "*.[pP][dD][fF]"
                    debounce: 250ms
                steps: [ { show: hi } ]
                """, fileName: "hooks.yaml")
        let full = try #require(long.automation)
        #expect(full.schedule?.value == "0 9 * * *")
        #expect(full.webhook?.secret == "DEPLOY_HOOK")
        #expect(full.webhook?.rate.description == "100/m")
        #expect(full.webhook?.rate.interval == .seconds(60))
        #expect(full.watch?.events == [.created, .modified, .deleted])
        #expect(full.watch?.debounce == .milliseconds(250))
        #expect(full.watch?.matches(fileName: "Report.PDF") == true)
        #expect(full.watch?.matches(fileName: "report.pdf.part") == false)
        #expect(try rendered("automation: { webhook: deploy }\nsteps: [ { show: hi } ]\n") == "")
    }

    @Test("A block without a trigger shows the three forms")
    func noTrigger() {
        #expect(
            loadErrors("automation:\n  timeout: 1m\nsteps: [ { show: hi } ]\n") == """
                hooks.yaml:2:3: error: 'automation' needs a trigger: 'schedule', 'webhook' or 'watch'
                    2 |   timeout: 1m
                      |   ^
                help: add one or more of:
                  schedule: "0 9 * * MON-FRI"      # runs on a cron schedule
                  webhook: deploy                  # runs on a request to /hooks/deploy
                  watch: { path: ~/Downloads }     # runs when a file appears in a folder
                """)
        // A misspelled trigger is told by its own "did you mean", not twice.
        #expect(
            loadErrors("automation:\n  wach: { path: inbox }\nsteps: [ { show: hi } ]\n") == """
                hooks.yaml:2:3: error: unknown key 'wach' in 'automation'
                    2 |   wach: { path: inbox }
                      |   ^~~~
                help: did you mean 'watch'?
                """)
    }

    @Test("A webhook's name, secret and rate are checked, with a suggestion")
    func webhookMistakes() {
        #expect(
            loadErrors("automation:\n  webhook: Deploy Site\nsteps: [ { show: hi } ]\n") == """
                hooks.yaml:2:12: error: invalid webhook name 'Deploy Site': it is the last part of the URL /hooks/NAME
                    2 |   webhook: Deploy Site
                      |            ^~~~~~~~~~~
                help: did you mean 'deploy-site'? use lowercase letters, digits, '-' and '_', starting with a letter or a digit
                """)
        #expect(
            loadErrors("automation:\n  webhook: { name: deploy, secret: deploy-key, rate: 10/day, sekret: X }\nsteps: [ { show: hi } ]\n") == """
                hooks.yaml:2:36: error: invalid secret name 'deploy-key'
                    2 |   webhook: { name: deploy, secret: deploy-key, rate: 10/day, sekret: X }
                      |                                    ^~~~~~~~~~
                help: did you mean 'DEPLOY_KEY'? secrets are named like environment variables: letters, digits and '_', starting with a letter or '_' (store one with `shortcuts secrets set NAME`)

                hooks.yaml:2:54: error: invalid rate '10/day'
                    2 |   webhook: { name: deploy, secret: deploy-key, rate: 10/day, sekret: X }
                      |                                                      ^~~~~~
                help: write the most requests per second, minute or hour: N/s, N/m or N/h, such as 10/s (N from 1 to 1000000)

                hooks.yaml:2:62: error: unknown key 'sekret' in 'webhook'
                    2 |   webhook: { name: deploy, secret: deploy-key, rate: 10/day, sekret: X }
                      |                                                              ^~~~~~
                help: did you mean 'secret'?
                """)
        #expect(loadErrors("automation:\n  webhook: { secret: X }\nsteps: []\n").contains("error: 'webhook' is missing required key 'name'"))
        #expect(loadErrors("automation:\n  webhook: { name: -deploy }\nsteps: []\n").contains("help: did you mean 'deploy'?"))
        #expect(loadErrors("automation:\n  webhook: { name: a, rate: 0/s }\nsteps: []\n").contains("error: invalid rate '0/s'"))
    }

    @Test("A watch's events, pattern, debounce and path are checked")
    func watchMistakes() {
        #expect(
            loadErrors(
                """
                automation:
                  watch:
                    path: inbox
                    events: [created, modifed]
                    pattern: "[a-z*.pdf"
                    debounce: 0s
                    patern: x
                steps: [ { show: hi } ]
                """) == """
                    hooks.yaml:4:23: error: unknown event 'modifed'
                        4 |     events: [created, modifed]
                          |                       ^~~~~~~
                    help: did you mean 'modified'?

                    hooks.yaml:5:15: error: invalid pattern '[a-z*.pdf': unclosed '[' in the pattern
                        5 |     pattern: "[a-z*.pdf"
                          |               ^~~~~~~~~
                    help: close the set with ']', such as '[0-9]', or write '\\[' for a '['

                    hooks.yaml:6:15: error: debounce must be longer than 0
                        6 |     debounce: 0s
                          |               ^~
                    help: write the quiet time that ends a burst of events, such as 500ms or 2s; 1s when not written

                    hooks.yaml:7:5: error: unknown key 'patern' in 'watch'
                        7 |     patern: x
                          |     ^~~~~~
                    help: did you mean 'pattern'?
                    """)
        #expect(
            loadErrors("automation:\n  watch: { path: inbox, pattern: 'scans/*.pdf' }\nsteps: []\n") == """
                hooks.yaml:2:40: error: invalid pattern 'scans/*.pdf': a pattern matches a file's name, which has no '/'
                    2 |   watch: { path: inbox, pattern: 'scans/*.pdf' }
                      |                                        ^
                help: put the folder in 'path:' and keep the name's pattern here, such as '*.pdf'
                """)
        #expect(loadErrors("automation:\n  watch: { path: inbox, pattern: 'a\\' }\nsteps: []\n").contains("ends with '\\', which escapes nothing"))
        #expect(
            loadErrors("automation:\n  watch: { path: inbox, pattern: '' }\nsteps: []\n").contains("error: invalid pattern '': the pattern is empty"))
        #expect(
            loadErrors("automation:\n  watch: { path: inbox, debounce: fast }\nsteps: []\n").contains("error: invalid duration 'fast' for 'debounce'")
        )
        #expect(
            loadErrors("automation:\n  watch: { path: inbox, events: [] }\nsteps: []\n").contains(
                "error: 'events' is empty, so nothing would start a run"))
        #expect(loadErrors("automation:\n  watch: { events: [created] }\nsteps: []\n").contains("error: 'watch' is missing required key 'path'"))
        #expect(
            loadErrors("automation:\n  watch: ~/Downloads\nsteps: []\n").contains(
                "help: write the folder under 'path', such as 'watch: { path: ~/Downloads }'"))
        #expect(loadErrors("automation:\n  watch: { path: inbox, events: created }\nsteps: []\n") == "", "one event alone is a list of one")
    }

    @Test("The schedule's settings without a schedule are errors")
    func settingsWithoutSchedule() {
        let text = loadErrors("automation:\n  webhook: deploy\n  timeZone: Europe/Paris\n  catchUp: all\nsteps: []\n")
        #expect(text.contains("hooks.yaml:3:3: error: 'timeZone' applies to 'schedule', which is not written"))
        #expect(text.contains("hooks.yaml:4:3: error: 'catchUp' applies to 'schedule', which is not written"))
        #expect(text.contains("help: remove it: webhook and file runs start when their request or file event comes"))
    }

    @Test("Each trigger must give every required input; a file trigger gives 'file' and 'event' of fitting types")
    func inputs() throws {
        #expect(
            try rendered(
                """
                input:
                  file: Int
                  event: String?
                  other: String
                  optional: { type: String, required: false }
                automation:
                  watch: { path: inbox }
                steps: [ { show: hi } ]
                """) == """
                    hooks.yaml:2:9: error: input 'file' is Int, but a file trigger gives it the file's path
                        2 |   file: Int
                          |         ^~~
                    help: declare it 'file: File' (or String, or URL)

                    hooks.yaml:4:3: error: input 'other' has no default, and a file trigger gives only 'file' and 'event'
                        4 |   other: String
                          |   ^~~~~
                    help: add 'default: VALUE' to input 'other', or 'required: false' to make it null when not given
                    """)
        for type in ["File", "String", "URL", "Any", "File?"] {
            #expect(try rendered("input:\n  file: \(type)\nautomation:\n  watch: { path: inbox }\nsteps: []\n") == "", "\(type)")
        }
        #expect(
            try rendered("input:\n  event: Bool\nautomation:\n  watch: { path: inbox }\nsteps: []\n").contains(
                "error: input 'event' is Bool, but a file trigger gives it the event's name: created, modified or deleted"))
        // A webhook gives its request's inputs: required inputs are fine.
        #expect(try rendered("input:\n  title: String\n  count: Int\nautomation:\n  webhook: add\nsteps: []\n") == "")
        // With a schedule too, a scheduled run gives none.
        #expect(
            try rendered("input:\n  file: File\nautomation:\n  schedule: '@daily'\n  watch: { path: inbox }\nsteps: []\n").contains(
                "error: input 'file' has no default, and a scheduled run gives no inputs"))
        // Declaring `body` takes the whole body, so a webhook gives nothing else.
        #expect(
            try rendered("input:\n  body: Any\n  title: String\nautomation:\n  webhook: add\nsteps: []\n").contains(
                "error: input 'title' has no default, and a webhook gives only 'body' (the whole request body)"))
    }

    @Test("Of two webhooks with one name, the second is an error pointing at the first")
    func duplicateNames() throws {
        let first = try WorkflowLoader.load(text: "automation:\n  webhook: deploy\nsteps: []\n", fileName: "Workflows/a.yaml")
        let second = try WorkflowLoader.load(text: "automation:\n  webhook: { name: deploy }\nsteps: []\n", fileName: "Workflows/b.yaml")
        let other = try WorkflowLoader.load(text: "automation:\n  webhook: build\nsteps: []\n", fileName: "Workflows/c.yaml")
        let diagnostics = WorkflowValidator.duplicateWebhookDiagnostics([first, second, other].compactMap { $0.automation?.webhook })
        #expect(
            DiagnosticRenderer(sources: ["Workflows/b.yaml": second.sourceText]).render(diagnostics) == """
                Workflows/b.yaml:2:20: error: webhook 'deploy' is already the webhook of a.yaml (line 2)
                    2 |   webhook: { name: deploy }
                      |                    ^~~~~~
                help: a webhook's name is unique in its folder, since /hooks/deploy runs one workflow: rename one of them
                """)
    }

    @Test("A watched path starts at the home folder with ~, else at the workflow's folder")
    func watchedFolder() throws {
        let home = try #require(ProcessInfo.processInfo.environment["HOME"])
        func folder(_ path: String) throws -> String {
            let workflow = try WorkflowLoader.load(text: "automation:\n  watch: { path: '\(path)' }\nsteps: []\n", fileName: "/srv/flows/sort.yaml")
            return try #require(workflow.automation?.watch).folder(relativeTo: workflow.fileName).path
        }
        #expect(try folder("~/Downloads") == URL(fileURLWithPath: home).appendingPathComponent("Downloads").standardizedFileURL.path)
        #expect(try folder("~") == URL(fileURLWithPath: home).standardizedFileURL.path)
        #expect(try folder("inbox/../scans") == "/srv/flows/scans")
        #expect(try folder("/var/spool/in") == "/var/spool/in")
    }

    @Test("Rates read N/s, N/m and N/h")
    func rates() {
        #expect(AutomationBlock.Rate(parsing: "10/s") == AutomationBlock.Rate(count: 10, unit: .second))
        #expect(AutomationBlock.Rate(parsing: "1000/h")?.interval == .seconds(3600))
        for bad in ["10", "/s", "10/", "-1/s", "1.5/s", "10/d", "2000000/s", "ten/s"] {
            #expect(AutomationBlock.Rate(parsing: bad) == nil, "\(bad)")
        }
    }
}

/// `Workflow.checkInputs`: the inputs a server gets are checked before a run, with the
/// run's own messages, all at once.
@Suite("Input checks")
struct InputCheckTests {
    private let workflow: Workflow

    init() throws {
        workflow = try WorkflowLoader.load(
            text: """
                input:
                  title: String
                  count: Int
                  tags: { type: "[String]", default: [] }
                  note: { type: String, required: false }
                steps: [ { show: "${input.title}" } ]
                """, fileName: "add.yaml")
    }

    private func problems(_ values: [String: IntentValue]) -> String {
        do {
            try workflow.checkInputs(values, catalog: IntentCatalog(apps: []))
            return ""
        } catch {
            return error.rendered()
        }
    }

    @Test("Valid values pass; optional and defaulted inputs may be left out")
    func valid() {
        #expect(problems(["title": .string("Emma"), "count": .int(3)]) == "")
        #expect(problems(["title": .string("Emma"), "count": .string("3"), "tags": .list([.string("a")]), "note": .null]) == "")
    }

    @Test("Unknown, missing and mistyped inputs are reported together, located")
    func invalid() {
        #expect(
            problems(["titel": .string("Emma"), "count": .string("three")]) == """
                add.yaml:1:1: error: 'add.yaml' has no input 'titel'
                    1 | input:
                      | ^
                help: did you mean 'title'?

                add.yaml:2:3: error: missing input 'title' (String)
                    2 |   title: String
                      |   ^~~~~
                help: give 'title' a value

                add.yaml:3:3: error: input 'count' expects Int: cannot use String 'three' as Int (write a whole number such as 3)
                    3 |   count: Int
                      |   ^~~~~
                """)
    }
}
