import Cron
import Foundation
import IntentKit
import WorkflowKit

/// Checks a workflow the way ``WorkflowValidator`` does, plus its `automation:` block: the
/// schedule parses and fires, the time zone exists, the timeout is positive, and the
/// workflow can run without anyone to answer (every input has a default).
///
/// Errors point into the file like every other workflow error, with the caret under the
/// offending cron field:
///
/// ```
/// Workflows/nightly.yaml:3:20: error: invalid schedule: field 3 (day of month): 32 is out of range 1–31
///     3 |   schedule: "0 0 32 * *"
///       |                  ^~
/// ```
///
/// ```swift
/// let validator = AutomationValidator(catalog: catalog)
/// let (diagnostics, sources) = validator.check(workflow)
/// if !diagnostics.isEmpty { print(DiagnosticRenderer(sources: sources).render(diagnostics)) }
/// ```
public struct AutomationValidator: Sendable {
    /// The checks of the workflow itself.
    public var workflowValidator: WorkflowValidator

    /// Creates a validator.
    ///
    /// ```swift
    /// let forTheDaemon = AutomationValidator(catalog: catalog)                     // headless
    /// let forATerminal = AutomationValidator(catalog: catalog, isHeadless: false)
    /// ```
    ///
    /// - Parameters:
    ///   - catalog: The installed apps.
    ///   - isHeadless: Whether runs cannot ask questions; the daemon's runs never can.
    ///   - answeredNames: Names answered in advance (`--answer name=value`).
    public init(catalog: IntentCatalog, isHeadless: Bool = true, answeredNames: Set<String> = []) {
        workflowValidator = WorkflowValidator(catalog: catalog, isHeadless: isHeadless, answeredNames: answeredNames)
    }

    /// Validates a workflow and its `automation:` block.
    ///
    /// ```swift
    /// let (diagnostics, sources) = AutomationValidator(catalog: catalog).check(workflow)
    /// ```
    ///
    /// - Parameter workflow: The workflow; one without an `automation:` block gets the workflow checks only.
    /// - Returns: The diagnostics sorted by location, and the sources they point into.
    public func check(_ workflow: Workflow) -> (diagnostics: [Diagnostic], sources: [String: String]) {
        let (diagnostics, sources) = workflowValidator.check(workflow)
        let automation = Self.diagnostics(for: workflow)
        guard !automation.isEmpty else { return (diagnostics, sources) }
        return ((diagnostics + automation).sorted { $0.location < $1.location }, sources)
    }

    /// The problems of a workflow's `automation:` block alone.
    ///
    /// ```swift
    /// for diagnostic in AutomationValidator.diagnostics(for: workflow) { print(diagnostic) }
    /// ```
    ///
    /// - Parameters:
    ///   - workflow: The workflow.
    ///   - now: The instant from which the schedule must fire at least once (within eight years).
    /// - Returns: The diagnostics, empty when the block is valid or absent.
    public static func diagnostics(for workflow: Workflow, now: Date = Date()) -> [Diagnostic] {
        guard let block = workflow.automation else { return [] }
        var diagnostics: [Diagnostic] = []
        let zone: TimeZone?
        if let name = block.timeZone {
            zone = TimeZone(identifier: name.value)
            if zone == nil {
                diagnostics.append(.error("unknown time zone '\(name.value)'", at: name.location,
                                          help: TimeZones.suggestion(for: name.value)))
            }
        } else {
            zone = TimeZone.current
        }
        do {
            let schedule = try CronExpression(block.schedule.value)
            if let zone, schedule.nextDate(after: now, in: zone) == nil {
                diagnostics.append(.error("schedule '\(block.schedule.value)' never fires", at: block.schedule.location,
                                          help: "no time matches every field within eight years; check the day of month against the month"))
            }
        } catch {
            diagnostics.append(.error("invalid schedule: \(error)", at: location(of: error, in: block.schedule, source: workflow.sourceText)))
        }
        if let timeout = block.timeout, timeout.value <= .zero {
            diagnostics.append(.error("timeout must be longer than 0", at: timeout.location,
                                      help: "write a duration such as 30s or 10m, or remove 'timeout' for no limit"))
        }
        for input in workflow.inputs where input.defaultValue == nil {
            diagnostics.append(.error("input '\(input.name.value)' has no default, and an automation runs without inputs",
                                      at: input.name.location, help: "add 'default: VALUE' to input '\(input.name.value)'"))
        }
        return diagnostics
    }

    /// The location of a cron error inside the written schedule: the scalar's column, past
    /// its opening quote, plus the error's column; underlined to the end of the field.
    static func location(of error: CronError, in schedule: Located<String>, source: String) -> SourceLocation {
        guard error.fieldIndex != nil else { return schedule.location }
        var location = schedule.location
        let lines = source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        if lines.indices.contains(location.line - 1) {
            let line = Array(lines[location.line - 1].unicodeScalars)
            if line.indices.contains(location.column - 1), line[location.column - 1] == "\"" || line[location.column - 1] == "'" {
                location.column += 1
            }
        }
        let text = Array(schedule.value.unicodeScalars)
        let start = min(max(error.column - 1, 0), text.count)
        let field = text[start...].prefix { $0 != " " && $0 != "\t" }
        location.column += start
        location.length = max(field.count, 1)
        return location
    }
}

/// IANA time zone names, for "did you mean" hints.
enum TimeZones {
    static func suggestion(for name: String) -> String {
        if let nearest = NameSuggestion.nearest(to: name, among: TimeZone.knownTimeZoneIdentifiers) {
            return "did you mean '\(nearest)'?"
        }
        return "use an IANA time zone name such as Europe/Paris or America/New_York"
    }
}
