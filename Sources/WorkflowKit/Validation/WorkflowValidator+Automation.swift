import Clockwork
import Cron
import Foundation
import IntentKit

/// Checking the `automation:` block: the schedule parses and fires, the time zone exists, the
/// timeout is positive, and every required input is given by each trigger (a scheduled run
/// gives none, a file trigger gives `file` and `event`, a webhook its request's JSON).
///
/// Errors point into the file like every other workflow error, with the caret under the
/// offending cron field:
///
/// ```
/// Workflows/nightly.yaml:3:20: error: invalid schedule: field 3 (day of month): 32 is out of range 1–31
///     3 |   schedule: "0 0 32 * *"
///       |                  ^~
/// ```
extension WorkflowValidator {
    /// Checks a cron schedule as `validate` does: it parses, and it fires at least once within
    /// eight years of `now` (`@reboot` fires at start, so it passes).
    ///
    /// ```swift
    /// let schedule = Located("0 0 31 2 *", at: SourceLocation(file: "cron", line: 1, column: 1))
    /// let problems = WorkflowValidator.scheduleDiagnostics(for: schedule, in: .gmt)
    /// // [error: schedule '0 0 31 2 *' never fires (help: no time matches every field within eight years; …)]
    /// ```
    ///
    /// - Parameters:
    ///   - schedule: The schedule as written and where; the caret of a cron error goes under its field.
    ///   - timeZone: The zone of the schedule, or `nil` when the zone is itself invalid (then only parsing is checked).
    ///   - isQuoted: Whether `schedule.location` points at an opening quote before the text.
    ///   - now: The instant from which the schedule must fire.
    /// - Returns: At most one diagnostic; empty when the schedule is valid.
    public static func scheduleDiagnostics(
        for schedule: Located<String>, in timeZone: TimeZone?,
        isQuoted: Bool = false, now: Date? = nil
    ) -> [Diagnostic] {
        let now = now ?? TaskClock.current.now()
        do {
            let expression = try CronExpression(schedule.value)
            if let timeZone, !expression.runsAtStart, expression.nextDate(after: now, in: timeZone) == nil {
                return [
                    .error(
                        "schedule '\(schedule.value)' never fires", at: schedule.location,
                        help: "no time matches every field within eight years; check the day of month against the month")
                ]
            }
            return []
        } catch {
            return [.error("invalid schedule: \(error)", at: location(of: error, in: schedule, isQuoted: isQuoted))]
        }
    }

    /// The problems of a workflow's `automation:` block, reported with the workflow's own.
    static func automationDiagnostics(for workflow: Workflow, catalog: IntentCatalog, now: Date? = nil) -> [Diagnostic] {
        guard let block = workflow.automation else { return [] }
        var diagnostics = blockDiagnostics(
            schedule: block.schedule, timeZone: block.timeZone,
            source: SourceText(workflow.sourceText), now: now)
        if let timeout = block.timeout, timeout.value <= .zero {
            diagnostics.append(
                .error(
                    "timeout must be longer than 0", at: timeout.location,
                    help: "write a duration such as 30s or 10m, or remove 'timeout' for no limit"))
        }
        diagnostics += triggerInputDiagnostics(for: workflow, block: block, catalog: catalog)
        return diagnostics
    }

    /// The inputs a file trigger gives a run, when the workflow declares them: the file's
    /// absolute path and the event's name.
    static let fileTriggerInputs = ["file", "event"]

    /// The input a webhook gives the whole request body, when the workflow declares it.
    static let webhookBodyInput = "body"

    /// Every required input must be given by each trigger that runs the workflow: a scheduled
    /// run gives none, a file trigger gives `file` and `event`, a webhook gives what its
    /// request's JSON object holds (only `body`, when the workflow declares it). The inputs a
    /// file trigger gives must be of a type that takes a path, or text.
    static func triggerInputDiagnostics(for workflow: Workflow, block: AutomationBlock, catalog: IntentCatalog) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let declaresBody = workflow.inputs.contains { $0.name.value == webhookBodyInput }
        for input in workflow.inputs where input.isRequired {
            let name = input.name.value
            let help = "add 'default: VALUE' to input '\(name)', or 'required: false' to make it null when not given"
            if block.schedule != nil {
                diagnostics.append(.error("input '\(name)' has no default, and a scheduled run gives no inputs", at: input.name.location, help: help))
            } else if block.watch != nil, !fileTriggerInputs.contains(name) {
                diagnostics.append(
                    .error("input '\(name)' has no default, and a file trigger gives only 'file' and 'event'", at: input.name.location, help: help))
            } else if block.webhook != nil, declaresBody, name != webhookBodyInput {
                diagnostics.append(
                    .error(
                        "input '\(name)' has no default, and a webhook gives only 'body' (the whole request body)", at: input.name.location,
                        help: help + "; or rename 'body' so that the body's keys are the inputs"))
            }
        }
        guard block.watch != nil else { return diagnostics }
        let accepted: [(name: String, types: Set<IntentValueType>, written: String)] = [
            ("file", [.file, .string, .url, .any], "'file: File' (or String, or URL)"),
            ("event", [.string, .any], "'event: String'")
        ]
        for (name, types, written) in accepted {
            guard let input = workflow.inputs.first(where: { $0.name.value == name }),
                let type = InputTypes.type(named: input.type.value, in: catalog), !types.contains(type.nonOptional)
            else { continue }
            diagnostics.append(
                .error(
                    "input '\(name)' is \(input.type.value), but a file trigger gives it "
                        + (name == "file" ? "the file's path" : "the event's name: created, modified or deleted"),
                    at: input.type.location, help: "declare it \(written)"))
        }
        return diagnostics
    }

    /// The webhooks of several workflows (a folder) whose name an earlier one took: an error
    /// at each later `webhook:` name, in the order given.
    ///
    /// ```swift
    /// let problems = WorkflowValidator.duplicateWebhookDiagnostics(workflows.compactMap { $0.automation?.webhook })
    /// ```
    ///
    /// - Parameter webhooks: The webhooks, in the order their files are read (by file name).
    /// - Returns: One error per webhook whose name is taken, pointing at the first one.
    public static func duplicateWebhookDiagnostics(_ webhooks: [AutomationBlock.Webhook]) -> [Diagnostic] {
        var first: [String: SourceLocation] = [:]
        var diagnostics: [Diagnostic] = []
        for webhook in webhooks {
            let name = webhook.name.value
            guard let taken = first[name] else {
                first[name] = webhook.name.location
                continue
            }
            let otherFile = URL(fileURLWithPath: taken.file).lastPathComponent
            diagnostics.append(
                .error(
                    "webhook '\(name)' is already the webhook of \(otherFile) (line \(taken.line))", at: webhook.name.location,
                    help: "a webhook's name is unique in its folder, since /hooks/\(name) runs one workflow: rename one of them"))
        }
        return diagnostics
    }

    /// The schedule and time-zone problems of a block, also reported while loading a block that
    /// has other mistakes, so that one pass shows them all.
    static func blockDiagnostics(
        schedule: Located<String>?, timeZone name: Located<String>?,
        source: SourceText, now: Date? = nil
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var zone: TimeZone? = TimeZone.current
        if let name {
            zone = TimeZone(identifier: name.value)
            if zone == nil {
                diagnostics.append(
                    .error(
                        "unknown time zone '\(name.value)'", at: name.location,
                        help: timeZoneSuggestion(for: name.value)))
            }
        }
        if let schedule {
            let line = source.lines.indices.contains(schedule.location.line - 1) ? source.lines[schedule.location.line - 1] : []
            let column = schedule.location.column - 1
            let isQuoted = line.indices.contains(column) && (line[column] == "\"" || line[column] == "'")
            diagnostics += scheduleDiagnostics(for: schedule, in: zone, isQuoted: isQuoted, now: now)
        }
        return diagnostics
    }

    /// The location of a cron error inside the written schedule: the scalar's column, past
    /// its opening quote, plus the error's column; underlined to the end of the field.
    static func location(of error: CronError, in schedule: Located<String>, isQuoted: Bool) -> SourceLocation {
        guard error.fieldIndex != nil else { return schedule.location }
        var location = schedule.location
        if isQuoted { location.column += 1 }
        let text = Array(schedule.value.unicodeScalars)
        let start = min(max(error.column - 1, 0), text.count)
        let field = text[start...].prefix { $0 != " " && $0 != "\t" }
        location.column += start
        location.length = max(field.count, 1)
        return location
    }

    /// A "did you mean" among the IANA time zone names.
    static func timeZoneSuggestion(for name: String) -> String {
        if let nearest = NameSuggestion.nearest(to: name, among: TimeZone.knownTimeZoneIdentifiers) {
            return "did you mean '\(nearest)'?"
        }
        return "use an IANA time zone name such as Europe/Paris or America/New_York"
    }
}
