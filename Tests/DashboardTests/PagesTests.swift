#if Web
    import AutomationKit
    import Foundation
    import IntentKit
    import Testing
    import WorkflowKit

    @testable import Dashboard

    /// The pages, read through the router on a real home with real runs.
    @Suite("Dashboard pages")
    struct PagesTests {
        @Test("The overview lists a scheduled automation with its next due time, files with errors first error, and the last day's runs")
        func overview() async throws {
            let harness = try DashboardHarness()
            try await harness.run("greet.yaml", inputs: ["person": .string("Ada")])
            try await harness.run("failing-check.yaml")
            try await harness.test { browser in
                let page = try await browser.get("/")
                #expect(page.status == .ok)
                #expect(page.body.contains(#"<a href="/workflows/hourly-report.yaml">Hourly report</a>"#), "\(page.body)")
                #expect(page.body.contains("<li><code>0 * * * * (UTC)</code></li>"))
                var utc = Calendar(identifier: .gregorian)
                utc.timeZone = try #require(TimeZone(identifier: "UTC"))
                let next = try #require(utc.nextDate(after: Date(), matching: DateComponents(minute: 0, second: 0), matchingPolicy: .strict))
                let shown = TimeText(zone: TimeZone(identifier: "UTC")!).shown(next)
                #expect(page.body.contains(#"<time datetime="\#(next.formatted(.iso8601))">\#(shown)</time>"#), "next due \(shown)")
                #expect(page.body.contains(#"<a href="/workflows/broken.yaml">"#), "a file with errors is listed")
                #expect(page.body.contains("4:14: <span class=\"severity-error\">error:</span> unknown intent &#39;Text.Trimm&#39;"))
                #expect(page.body.contains(#"<span class="count" data-status-count="failed">1</span>"#))
                #expect(page.body.contains(#"<span class="count" data-status-count="succeeded">1</span>"#))
                #expect(page.body.contains("Failing check") && page.body.contains("Greet"))
            }
        }

        @Test("A workflow named <script>alert(1)</script> shows as text on every page, never as markup")
        func escapedName() async throws {
            let harness = try DashboardHarness()
            let id = try await harness.run("script-name.yaml")
            try await harness.test { browser in
                for path in ["/", "/workflows", "/workflows/script-name", "/runs", "/runs/\(id)"] {
                    let page = try await browser.get(path)
                    #expect(page.status == .ok, "\(path)")
                    #expect(!page.body.contains("<script>alert(1)</script>"), "\(path) writes the name as markup")
                    #expect(!page.body.contains("<img src=x"), "\(path) writes the shown text as markup")
                    #expect(!page.body.contains("<b>description</b>"), "\(path) writes the description as markup")
                }
                let workflow = try await browser.get("/workflows/script-name.yaml")
                #expect(workflow.body.contains("<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
                let run = try await browser.get("/runs/\(id)")
                #expect(run.body.contains("&lt;img src=x onerror=alert(2)&gt;"))
                #expect(run.body.contains("<title>Run \(id.prefix(8)) · &lt;script&gt;alert(1)&lt;/script&gt; · Shortcuts</title>"))
            }
        }

        @Test("Unknown pages, workflows and runs answer 404 with the way back; a mistyped workflow gets a suggestion")
        func notFound() async throws {
            let harness = try DashboardHarness()
            try await harness.test { browser in
                let run = try await browser.get("/runs/0000dead")
                #expect(run.status == .notFound)
                #expect(run.body.contains("<strong>error:</strong> no run &#39;0000dead&#39;"))
                #expect(run.body.contains("help: the runs page lists the recent runs"))
                let workflow = try await browser.get("/workflows/gret")
                #expect(workflow.status == .notFound)
                #expect(workflow.body.contains("help: did you mean &#39;greet&#39;?"))
                let outside = try await browser.get("/workflows/..%2F..%2Fetc%2Fpasswd")
                #expect(outside.status == .notFound)
                #expect(!outside.body.contains("root:"))
                let page = try await browser.get("/no/such/page")
                #expect(page.status == .notFound)
                #expect(page.body.contains("no page at /no/such/page"))
                #expect(page.headers[.contentType] == "text/html; charset=utf-8")
                let details = try await browser.get("/runs/0000dead/details")
                #expect(details.status == .notFound)
            }
        }

        @Test("The runs page filters by status, workflow, trigger and time, pages, and refuses bad values with 400 and the reason")
        func filters() async throws {
            let harness = try DashboardHarness()
            let failed = try await harness.run("failing-check.yaml")
            let greeted = try await harness.run("greet.yaml", inputs: ["person": .string("Ada")], trigger: "automation")
            try await harness.test { browser in
                let byStatus = try await browser.get("/runs?status=failed")
                #expect(byStatus.status == .ok)
                #expect(byStatus.body.contains(#"data-run-id="\#(failed)""#) && !byStatus.body.contains(#"data-run-id="\#(greeted)""#))
                let byWorkflow = try await browser.get("/runs?workflow=greet.yaml")
                #expect(byWorkflow.body.contains(#"data-run-id="\#(greeted)""#) && !byWorkflow.body.contains(#"data-run-id="\#(failed)""#))
                let byTrigger = try await browser.get("/runs?trigger=automation")
                #expect(byTrigger.body.contains(#"data-run-id="\#(greeted)""#) && !byTrigger.body.contains(#"data-run-id="\#(failed)""#))
                let past = try await browser.get("/runs?until=2020-01-01")
                #expect(past.body.contains("No runs match these filters."))
                let recent = try await browser.get("/runs?since=1h&until=2099-01-01T00%3A00")
                #expect(recent.body.contains(#"data-run-id="\#(failed)""#) && recent.body.contains(#"data-run-id="\#(greeted)""#))
                let badStatus = try await browser.get("/runs?status=faild")
                #expect(badStatus.status == .badRequest)
                #expect(badStatus.body.contains("<strong>error:</strong> unknown status &#39;faild&#39;"))
                #expect(badStatus.body.contains("help: did you mean &#39;failed&#39;?"))
                let badTime = try await browser.get("/runs?since=yesterday")
                #expect(badTime.status == .badRequest)
                #expect(badTime.body.contains("&#39;yesterday&#39; in since is not a time"))
                let backwards = try await browser.get("/runs?since=2026-03-02&until=2026-03-01")
                #expect(backwards.status == .badRequest)
                let badPage = try await browser.get("/runs?page=0")
                #expect(badPage.status == .badRequest)
                let garbled = try await browser.get("/runs?status=%ZZ")
                #expect(garbled.status == .badRequest)
                #expect(garbled.body.contains("the address&#39;s query is not URL-encoded"))
            }
        }

        @Test("Runs are listed fifty to a page, with links to older and newer pages")
        func paging() async throws {
            let harness = try DashboardHarness(workflows: ["hourly-report.yaml"])
            let workflow = try WorkflowLoader.load(contentsOf: harness.workflows.appendingPathComponent("hourly-report.yaml"))
            let ids = try (0..<55).map { _ in try harness.history.begin(workflow: workflow) }
            try await harness.test { browser in
                let first = try await browser.get("/runs")
                #expect(first.body.components(separatedBy: "<tr data-run-id=\"").count - 1 == 51, "50 rows and the live row's template")
                #expect(first.body.contains(#"<a rel="next" href="/runs?page=2">Older runs</a>"#))
                #expect(first.body.contains(#"data-run-id="\#(ids[54])""#) && !first.body.contains(#"data-run-id="\#(ids[4])""#))
                let second = try await browser.get("/runs?page=2")
                #expect(second.body.contains(#"data-run-id="\#(ids[0])""#) && second.body.contains(#"data-run-id="\#(ids[4])""#))
                #expect(!second.body.contains(#"data-run-id="\#(ids[5])""#))
                #expect(second.body.contains(#"<a rel="prev" href="/runs">Newer runs</a>"#))
                #expect(!second.body.contains("data-takes-new-runs"), "a later page takes no new runs")
            }
        }

        @Test("A failed run's page shows its trace as a tree, marks the step where it failed, and draws a timeline")
        func failedTrace() async throws {
            let harness = try DashboardHarness()
            let id = try await harness.run("failing-check.yaml")
            try await harness.test { browser in
                let page = try await browser.get("/runs/\(id.prefix(8))")
                #expect(page.status == .ok)
                #expect(page.body.contains(#"<span class="badge status-failed" data-field="status">failed</span>"#))
                #expect(page.body.contains(##"<p><a href="#step-3">Go to the failing step</a></p>"##), "\(page.body)")
                let failing = try #require(page.body.range(of: #"<li class="step has-error failing" id="step-3">"#))
                let step = String(page.body[failing.lowerBound...].prefix(1_500))
                #expect(step.contains(#"<span class="kind">perform</span> → <code>probe</code>"#))
                #expect(step.contains("failing-check.yaml:9:9"))
                #expect(step.contains("the run failed here"))
                #expect(step.contains("exited with status 3") && step.contains("disk full"))
                #expect(page.body.contains(#"<li class="step has-error" id="step-1">"#), "the repeat around it failed too, but not first")
                let repeatStart = try #require(page.body.range(of: #"id="step-1""#))
                #expect(repeatStart.lowerBound < failing.lowerBound, "the failing step is inside the repeat")
                #expect(page.body.contains("<ol>\n<li class=\"step\" id=\"step-2\">"), "the repeat's steps are nested in it")
                #expect(page.body.contains(#"<rect class="bar failed""#))
                #expect(page.body.contains("<title>perform probe at "))
                let details = try await browser.get("/runs/\(id)/details")
                #expect(details.status == .ok)
                #expect(details.body.contains(#"id="step-3""#) && !details.body.contains("<html"))
            }
        }

        @Test("A workflow's page shows its source with line numbers and each error under its line, with the caret and help")
        func diagnostics() async throws {
            let harness = try DashboardHarness()
            try await harness.test { browser in
                let page = try await browser.get("/workflows/broken.yaml")
                #expect(page.status == .ok)
                #expect(
                    page.body.contains(
                        #"<tr id="line-4" class="has-diagnostic"><th scope="row">4</th><td><code>  - perform: Text.Trimm</code></td></tr>"#))
                #expect(page.body.contains(#"<pre class="caret" aria-hidden="true">             ^~~~~~~~~~</pre>"#), "\(page.body)")
                #expect(
                    page.body.contains(
                        "<strong>error:</strong> unknown intent &#39;Text.Trimm&#39; <span class=\"location\">(\(harness.workflows.path)/broken.yaml:4:14)</span>"
                    ))
                #expect(page.body.contains("<p class=\"help\">help: did you mean &#39;Text.Trim&#39;?</p>"))
                #expect(page.body.contains("This file has errors: fix them (below) to run it."))
                #expect(!page.body.contains("<form class=\"run-form\""))
                let list = try await browser.get("/workflows")
                #expect(list.body.contains(#"<span class="badge status-failed">1 error</span>"#))
                #expect(list.body.contains(#"<a href="/workflows/greet.yaml">Greet</a>"#))
            }
        }

        @Test("The charts count runs per day by status, with a table, and how late a daemon's automation runs started")
        func charts() async throws {
            let harness = try DashboardHarness(workflows: ["../tick.yaml", "failing-check.yaml"])
            try await harness.run("failing-check.yaml")
            var daemonConfiguration = AutomationDaemon.Configuration(
                workflows: harness.workflows, catalog: DashboardHarness.catalog, home: harness.home, grace: .seconds(2))
            daemonConfiguration.stores = DaemonStores(automations: harness.automations, history: harness.history)
            let daemon = AutomationDaemon(daemonConfiguration)
            let running = Task { try await daemon.run() }
            try await harness.waitFor("two automation runs") {
                try harness.history.runs(RunHistory.Filter(status: .succeeded, trigger: "automation")).count >= 2
            }
            daemon.requestStop()
            try await running.value
            try await harness.test { browser in
                let page = try await browser.get("/charts?days=7")
                #expect(page.status == .ok)
                let now = Date()
                let today = TimeText(zone: TimeZone(identifier: "UTC")!).day(now)
                var utc = Calendar(identifier: .gregorian)
                utc.timeZone = try #require(TimeZone(identifier: "UTC"))
                let midnight = utc.startOfDay(for: now)
                let counts = try harness.history.statusCounts(from: midnight, to: midnight.addingTimeInterval(86_400))
                let succeeded = counts[.succeeded] ?? 0
                #expect(succeeded >= 2 && counts[.failed] == 1)
                #expect(page.body.contains("<title>\(today): 1 failed</title>"), "\(page.body)")
                #expect(page.body.contains("<title>\(today): \(succeeded) succeeded</title>"))
                #expect(page.body.contains(#"<table class="visually-hidden">"#))
                let cells = [RunHistory.Status.succeeded, .cancelled, .running, .interrupted, .failed].map { "<td>\(counts[$0] ?? 0)</td>" }
                let total = counts.values.reduce(0, +)
                #expect(page.body.contains("<tr><th scope=\"row\">\(today)</th>" + cells.joined() + "<td>\(total)</td></tr>"))
                let claims = try harness.automations.claims(dueFrom: Date().addingTimeInterval(-3_600), to: Date())
                let started = claims.filter { $0.startedAt != nil }.count
                #expect(started >= 2)
                #expect(page.body.contains("over \(started) runs."))
                #expect(page.body.contains("Median ") && page.body.contains("95th percentile "))
                let bad = try await browser.get("/charts?days=365")
                #expect(bad.status == .badRequest)
                #expect(bad.body.contains("is not a number of days from 1 to 90"))
                // The overview shows how the latest due time went, with a link to its run when it ran.
                let overview = try await browser.get("/")
                let folder = AutomationFolder.load(harness.workflows, catalog: DashboardHarness.catalog)
                let latest = try #require(try folder.summaries(store: harness.automations).first { $0.file.hasSuffix("tick.yaml") })
                let status = try #require(latest.lastStatus)
                let badge = #"<span class="badge status-\#(status)">\#(status)</span>"#
                #expect(overview.body.contains(badge + (latest.lastRunID.map { #" <a href="/runs/\#($0)">trace</a>"# } ?? "</td>")))
            }
        }

        @Test("The intents page lists the installed apps' intents with their parameters, entities, enums and phrases")
        func intents() async throws {
            let harness = try DashboardHarness()
            try await harness.test { browser in
                let page = try await browser.get("/intents")
                #expect(page.status == .ok)
                #expect(page.body.contains(#"<h2 id="app-Text">Text</h2>"#))
                #expect(page.body.contains("<h4><code>Text.ChangeCase</code> · Change Case</h4>"))
                #expect(page.body.contains("<tr><th scope=\"row\"><code>to</code></th>"))
                #expect(page.body.contains("<dt><code>Text.TextCase</code> · Text Case</dt>"))
                #expect(page.body.contains("<code>upper</code>"))
            }
        }

        @Test("Search without an index explains nothing, and an unknown index is a 400 naming the known ones")
        func search() async throws {
            let harness = try DashboardHarness()
            try await harness.test { browser in
                let empty = try await browser.get("/search")
                #expect(empty.status == .ok)
                #expect(empty.body.contains(#"<input type="search" id="search-q" name="q" value="">"#))
                let unknown = try await browser.get("/search?q=owens&index=libary")
                #expect(unknown.status == .badRequest)
                #expect(unknown.body.contains("no search index &#39;libary&#39;"))
            }
        }

        @Test("/healthz answers 200 with JSON when both stores answer, without a token")
        func health() async throws {
            let harness = try DashboardHarness(token: String(repeating: "t", count: 20))
            try await harness.test { browser in
                let page = try await browser.get("/healthz")
                #expect(page.status == .ok)
                #expect(page.body == "{\"automations\":\"ok\",\"runs\":\"ok\",\"status\":\"ok\"}\n")
                #expect(page.headers[.contentType] == "application/json")
            }
        }
    }
#endif
