#if Web
    import Foundation
    import WorkflowKit

    /// `/runs/ID`: one run with its trace as a tree of steps (parallel branches and loop passes
    /// nested under their step) with each step's inputs, output, dialog, details and error, the
    /// failing step marked, and a timeline of the steps' durations. What `shortcuts runs show` prints.
    ///
    /// The part below the heading (``Details``) is also served alone at `/runs/ID/details`, which
    /// an open run page fetches when live updates say the run ended.
    struct RunPage: Sendable {
        /// The run and its trace.
        struct Details: Sendable {
            var run: RunRow
            var workflowHref: String?
            var ended: String?
            /// The input values it was given, as JSON; `nil` when none were recorded.
            var inputs: String?
            var output: String?
            var error: String?
            var steps: [StepNode]
            var hasSteps: Bool
            var failingAnchor: String?
            var timeline: Timeline?
        }

        var chrome: PageChrome
        var details: Details

        /// The page of a run found by its id or a unique start of it.
        ///
        /// - Throws: ``PageError`` 404 when no run or several runs match.
        static func make(id: String, site: DashboardSite, context: DashboardContext) async throws -> RunPage {
            let details = try await details(id: id, site: site)
            return RunPage(
                chrome: PageChrome(
                    title: "Run \(details.run.shortID) · \(details.run.displayName)", section: .runs, context: context, live: .run,
                    runID: details.run.id),
                details: details)
        }

        static func details(id: String, site: DashboardSite) async throws -> Details {
            let configuration = site.configuration
            let found: (run: RunHistory.Run, steps: [RunHistory.RecordedStep])
            do {
                found = try await offload { try configuration.history.run(matching: id) }
            } catch HistoryError.noRun {
                throw PageError(.notFound, "no run '\(id)'", help: ["the runs page lists the recent runs"])
            } catch HistoryError.ambiguous {
                throw PageError(.notFound, "several runs start with '\(id)'", help: ["give more characters of the run's id"])
            }
            let mask = site.mask
            let times = site.times
            let run = mask.mask(found.run)
            let steps = found.steps.map { mask.mask($0) }
            let nodes = StepNode.tree(steps, runStart: run.startedAt, times: times)
            let names = WorkflowFiles(directory: configuration.workflows).names
            let fileName = URL(fileURLWithPath: run.workflow).lastPathComponent
            return Details(
                run: RunRow(run, times: times), workflowHref: names.contains(fileName) ? WorkflowFiles.href(fileName) : nil,
                ended: run.endedAt.map(times.shown), inputs: Self.shownInputs(run.inputs), output: run.output.map { RunJSON.text(RunJSON.value($0)) },
                error: run.error,
                steps: nodes, hasSteps: !nodes.isEmpty, failingAnchor: StepNode.firstFailing(in: nodes).map { "#step-\($0)" },
                timeline: steps.isEmpty ? nil : Timeline(run: run, steps: steps, times: times))
        }

        /// A run's recorded inputs as indented JSON; `nil` for none (an empty object included).
        static func shownInputs(_ json: String?) -> String? {
            guard let json, let value = RunJSON.value(json) as? [String: Any], !value.isEmpty else { return nil }
            return RunJSON.text(value)
        }
    }

    /// One recorded step, with the steps it ran inside it.
    struct StepNode: Sendable {
        var position: Int
        var anchor: String
        var kind: String
        var branch: Int?
        var stepID: String?
        var location: String
        var duration: String
        var startOffset: String
        var inputs: String?
        var output: String?
        var dialog: String?
        /// What the step's intent recorded, one `name: value` line each.
        var detailText: String?
        var error: String?
        var hasError: Bool
        /// Whether the run failed here: this step failed and none of the steps inside it did.
        var isFailing: Bool
        var children: [StepNode]
        var hasChildren: Bool

        /// The steps as a tree: each step holds the deeper steps recorded right after it.
        static func tree(_ steps: [RunHistory.RecordedStep], runStart: Date, times: TimeText) -> [StepNode] {
            var index = 0
            func level(_ depth: Int) -> [StepNode] {
                var nodes: [StepNode] = []
                while index < steps.count, steps[index].depth >= depth {
                    let step = steps[index]
                    index += 1
                    let children = level(step.depth + 1)
                    let failedInside = children.contains { $0.hasError }
                    let inputs = RunJSON.value(step.inputs)
                    let isEmpty = (inputs as? [String: Any])?.isEmpty == true
                    nodes.append(
                        StepNode(
                            position: step.position, anchor: "step-\(step.position)", kind: step.kind, branch: step.branch, stepID: step.stepID,
                            location: "\(step.file):\(step.line):\(step.column)", duration: times.duration(step.durationSeconds),
                            startOffset: "+" + times.duration(max(step.startedAt.timeIntervalSince(runStart), 0)),
                            inputs: isEmpty ? nil : RunJSON.text(inputs), output: step.output.map { RunJSON.text(RunJSON.value($0)) },
                            dialog: step.dialog, detailText: Self.detailText(step.details), error: step.error, hasError: step.error != nil,
                            isFailing: step.error != nil && !failedInside, children: children, hasChildren: !children.isEmpty))
                }
                return nodes
            }
            var roots: [StepNode] = []
            while index < steps.count { roots += level(steps[index].depth) }
            return roots
        }

        /// A step's details as lines, or `nil` when it recorded none.
        static func detailText(_ json: String?) -> String? {
            let lines = RunText.details(json)
            return lines.isEmpty ? nil : lines.joined(separator: "\n")
        }

        /// The position of the first step where the run failed, depth first.
        static func firstFailing(in nodes: [StepNode]) -> Int? {
            for node in nodes {
                if node.isFailing { return node.position }
                if let inside = firstFailing(in: node.children) { return inside }
            }
            return nil
        }
    }
#endif
