#if Web
    import Foundation
    import IntentKit
    import Testing
    import WorkflowKit

    @testable import Dashboard

    /// The form that runs a workflow: its controls, the values it reads back, and the runs it starts.
    @Suite("Dashboard run form")
    struct RunFormTests {
        @Test("The form has a control suited to each input's type, and says which are required, their defaults and descriptions")
        func controls() async throws {
            let harness = try DashboardHarness()
            try await harness.test { browser in
                let page = try await browser.get("/workflows/greet")
                #expect(page.status == .ok)
                let body = page.body
                #expect(body.contains(#"<label for="input-person">person <span class="required">(required)</span></label>"#))
                #expect(body.contains(#"<input type="text" id="input-person" name="input.person" value="" required"#))
                #expect(body.contains("— Who to greet"))
                #expect(body.contains(#"<input type="number" id="input-times" name="input.times" value="" step="1" placeholder="1""#))
                #expect(body.contains("· default: <code>1</code>"))
                #expect(body.contains(#"<input type="checkbox" id="input-loud" name="input.loud" value="true""#))
                #expect(body.contains(#"<select id="input-style" name="input.style""#))
                #expect(body.contains(#"<option value="title" selected>Title Case</option>"#) || body.contains(#"<option value="title" selected>"#))
                #expect(body.contains(#"<option value="upper">"#))
                #expect(body.contains(#"<input type="datetime-local" id="input-when" name="input.when" value="""#))
                #expect(body.contains("<code>Date</code> · optional"))
                #expect(body.contains(#"<textarea id="input-extras" name="input.extras" rows="4""#))
                #expect(body.contains("· one value per line"))
            }
        }

        @Test("Values that do not fit their inputs are shown on the form, located at each input's declaration, and start no run")
        func invalidValues() async throws {
            let harness = try DashboardHarness()
            try await harness.test { browser in
                _ = try await browser.get("/workflows/greet")
                let page = try await browser.post(
                    "/workflows/greet.yaml/run",
                    form: [("input.person", ""), ("input.times", "three"), ("input.style", "shouting"), ("input.when", "soon")])
                #expect(page.status == .unprocessableContent)
                let file = harness.workflows.appendingPathComponent("greet.yaml").path
                #expect(
                    page.body.contains(
                        ##"<li><a href="#input-person">person</a>: a value is required <span class="location">(declared at \##(file):4:3)</span></li>"##
                    ))
                #expect(
                    page.body.contains(
                        ##"<a href="#input-times">times</a>: cannot use String &#39;three&#39; as Int (write a whole number such as 3)"##))
                #expect(page.body.contains(##"<a href="#input-style">style</a>: "##))
                #expect(page.body.contains(##"<a href="#input-when">when</a>: &#39;soon&#39; is not a date and time such as 2026-03-08T09:00"##))
                #expect(page.body.contains(#"<input type="number" id="input-times" name="input.times" value="three""#), "the values given stay")
                #expect(page.body.contains(#"aria-invalid="true""#))
                #expect(page.body.contains("The run did not start: some values do not fit their inputs."))
                #expect(try harness.history.runs(RunHistory.Filter()).isEmpty)
            }
        }

        @Test("A submitted form starts the run in the server's process, recorded with the trigger dashboard, and redirects to its page")
        func startsRun() async throws {
            let harness = try DashboardHarness()
            try await harness.test { browser in
                _ = try await browser.get("/workflows/greet")
                let answer = try await browser.post(
                    "/workflows/greet.yaml/run",
                    form: [
                        ("input.person", "Ada"), ("input.times", "2"), ("input.loud", "true"), ("input.style", "upper"),
                        ("input.when", "2026-03-08T09:30"), ("input.extras", "tea\r\n\r\ncake\n")
                    ])
                #expect(answer.status == .seeOther)
                let location = try #require(answer.location)
                #expect(location.hasPrefix("/runs/"))
                let id = String(location.dropFirst("/runs/".count))
                try await harness.waitFor("the run to end") {
                    try harness.history.runs(ids: [id]).first.map { $0.status != .running } ?? false
                }
                let run = try #require(try harness.history.runs(ids: [id]).first)
                #expect(run.trigger == "dashboard" && run.status == .succeeded, "\(run.error ?? "")")
                let output = try #require(run.output.flatMap { try? IntentValue.fromJSON($0) })
                #expect(
                    output
                        == .dictionary([
                            "greeting": .string("HELLO ADA"), "times": .int(2), "loud": .bool(true),
                            "extras": .list([.string("tea"), .string("cake")])
                        ]))
                let page = try await browser.get(location)
                #expect(page.body.contains(#"<span class="badge status-succeeded" data-field="status">succeeded</span>"#))
                #expect(page.body.contains("<dd>dashboard</dd>"))
            }
        }

        @Test("A file with errors cannot be run from its page")
        func invalidWorkflow() async throws {
            let harness = try DashboardHarness()
            try await harness.test { browser in
                _ = try await browser.get("/workflows/broken")
                let page = try await browser.post("/workflows/broken.yaml/run", form: [])
                #expect(page.status == .unprocessableContent)
                #expect(page.body.contains("The run did not start: the file has errors, shown below its lines."))
                #expect(try harness.history.runs(RunHistory.Filter()).isEmpty)
            }
        }
    }
#endif
