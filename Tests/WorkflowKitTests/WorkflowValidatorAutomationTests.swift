import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// The `automation:` block is checked with the rest of a workflow, in the same call: located errors with a caret
/// under the mistake, and a "did you mean" where one helps.
@Suite("Automation validation")
struct WorkflowValidatorAutomationTests {
    private func rendered(_ yaml: String) throws -> String {
        let workflow = try WorkflowLoader.load(text: yaml, fileName: "nightly.yaml")
        let (diagnostics, sources) = WorkflowValidator(catalog: IntentCatalog(apps: [])).check(workflow)
        return DiagnosticRenderer(sources: sources).render(diagnostics)
    }

    @Test("A cron mistake is underlined in the quoted schedule")
    func quotedSchedule() throws {
        let text = try rendered(
            """
            automation:
              schedule: "0 0 32 * *"
            steps: [ { show: hi } ]
            """)
        #expect(
            text == """
                nightly.yaml:2:18: error: invalid schedule: field 3 (day of month): 32 is out of range 1–31
                    2 |   schedule: "0 0 32 * *"
                      |                  ^~
                """)
    }

    @Test("A cron mistake is underlined in a plain schedule, with the parser's suggestion")
    func plainSchedule() throws {
        let text = try rendered(
            """
            automation:
              schedule: 0 9 * * FRY
            steps: [ { show: hi } ]
            """)
        #expect(
            text == """
                nightly.yaml:2:21: error: invalid schedule: field 5 (day of week): unknown name 'FRY'; did you mean FRI?
                    2 |   schedule: 0 9 * * FRY
                      |                     ^~~
                """)
    }

    @Test("A wrong number of fields underlines the whole schedule")
    func fieldCount() throws {
        let text = try rendered("automation: { schedule: '0 9 * *' }\nsteps: [ { show: hi } ]\n")
        #expect(text.hasPrefix("nightly.yaml:1:25: error: invalid schedule: expected 5 fields"))
        #expect(text.contains("  |                         ^~~~~~~~~"))
    }

    @Test("Unknown time zones get a suggestion; timeouts must be positive; a scheduled run's inputs need defaults")
    func otherChecks() throws {
        let text = try rendered(
            """
            input:
              shelf: String
            automation:
              schedule: "@daily"
              timeZone: Europe/Pari
              timeout: 0s
            steps: [ { show: "${input.shelf}" } ]
            """)
        #expect(
            text == """
                nightly.yaml:2:3: error: input 'shelf' has no default, and a scheduled run gives no inputs
                    2 |   shelf: String
                      |   ^~~~~
                help: add 'default: VALUE' to input 'shelf', or 'required: false' to make it null when not given

                nightly.yaml:5:13: error: unknown time zone 'Europe/Pari'
                    5 |   timeZone: Europe/Pari
                      |             ^~~~~~~~~~~
                help: did you mean 'Europe/Paris'?

                nightly.yaml:6:12: error: timeout must be longer than 0
                    6 |   timeout: 0s
                      |            ^~
                help: write a duration such as 30s or 10m, or remove 'timeout' for no limit
                """)
    }

    @Test("A schedule that never fires is an error")
    func neverFires() throws {
        let text = try rendered("automation: { schedule: '0 0 30 2 *' }\nsteps: [ { show: hi } ]\n")
        #expect(text.hasPrefix("nightly.yaml:1:25: error: schedule '0 0 30 2 *' never fires"))
    }

    @Test("A valid block, and a workflow without one, have no diagnostics")
    func valid() throws {
        #expect(
            try rendered(
                """
                automation:
                  schedule: "*/5 9-17 * * MON-FRI"
                  timeZone: America/New_York
                  overlap: queue
                  catchUp: all
                  timeout: 10m
                  retry: { attempts: 3, backoff: 30s }
                steps: [ { show: hi } ]
                """) == "")
        #expect(try rendered("steps: [ { show: hi } ]") == "")
    }

    @Test("A mistake in 'timeout' does not hide the schedule's and the time zone's")
    func onePass() throws {
        do {
            _ = try WorkflowLoader.load(
                text: """
                    automation:
                      schedule: "0 0 32 * *"
                      timeZone: Europe/Pari
                      timeout: 10x
                    steps: [ { show: hi } ]
                    """, fileName: "nightly.yaml")
            Issue.record("loaded a workflow with a malformed timeout")
        } catch {
            let lines = error.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
            #expect(lines.count == 3, "\(lines)")
            #expect(lines.first == "2:18: invalid schedule: field 3 (day of month): 32 is out of range 1–31")
            #expect(lines.dropFirst().first == "3:13: unknown time zone 'Europe/Pari'")
            #expect(lines.last?.hasPrefix("4:") == true, "the timeout's own mistake: \(lines)")
        }
    }

    @Test("@reboot is a valid schedule")
    func reboot() throws {
        #expect(try rendered("automation: { schedule: '@reboot' }\nsteps: [ { show: hi } ]\n") == "")
    }

    @Test("Workflow errors and automation errors come from one call, sorted by location")
    func workflowAndBlockTogether() throws {
        let text = try rendered(
            """
            automation:
              schedule: "0 0 31 2 *"
            steps:
              - show: ${nowhere}
            """)
        #expect(text.hasPrefix("nightly.yaml:2:13: error: schedule '0 0 31 2 *' never fires"))
        #expect(text.contains("nightly.yaml:4:"))
    }
}
