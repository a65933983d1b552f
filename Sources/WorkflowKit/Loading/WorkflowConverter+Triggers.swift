import Foundation
import IntentKit
import Yams

/// Converting the `webhook:` and `watch:` triggers of the `automation:` block.
extension WorkflowConverter {
    static let webhookKeys = ["name", "secret", "rate"]
    static let watchKeys = ["path", "events", "pattern", "debounce"]

    /// `webhook: NAME`, or `webhook: { name, secret, rate }`.
    func convertWebhook(_ node: Node, at keyLocation: SourceLocation) -> AutomationBlock.Webhook? {
        if case .scalar = node, !Self.isNull(node) {
            guard let name = webhookName(node) else { return nil }
            return AutomationBlock.Webhook(name: name, secretName: nil, rate: .webhookDefault, location: keyLocation)
        }
        guard let entries = mappingEntries(node, for: "'webhook'") else { return nil }
        for entry in entries.all where !Self.webhookKeys.contains(entry.key.value) {
            reportUnknownKey(entry.key, message: "unknown key '\(entry.key.value)' in 'webhook'", candidates: Self.webhookKeys)
        }
        let secret = entries.nonNull("secret").flatMap(webhookSecret)
        let rate = entries.nonNull("rate").flatMap(rate)
        guard let nameEntry = entries["name"] else {
            if !isMisspelled("name", in: entries) {
                report(
                    "'webhook' is missing required key 'name'", at: entries.location,
                    help: "name it, such as 'webhook: { name: deploy }': requests to /hooks/deploy run the workflow")
            }
            return nil
        }
        guard let name = webhookName(nameEntry.value) else { return nil }
        if entries.nonNull("secret") != nil && secret == nil { return nil }
        if entries.nonNull("rate") != nil && rate == nil { return nil }
        return AutomationBlock.Webhook(name: name, secretName: secret, rate: rate ?? .webhookDefault, location: keyLocation)
    }

    private func webhookName(_ node: Node) -> Located<String>? {
        guard let name = text(node, for: "the webhook's name") else { return nil }
        guard AutomationBlock.Webhook.isValidName(name.value) else {
            let suggestion = AutomationBlock.Webhook.suggestedName(for: name.value).map { "did you mean '\($0)'? " } ?? ""
            report(
                "invalid webhook name '\(name.value)': it is the last part of the URL /hooks/NAME", at: name.location,
                help: suggestion + "use lowercase letters, digits, '-' and '_', starting with a letter or a digit")
            return nil
        }
        return name
    }

    private func webhookSecret(_ node: Node) -> Located<String>? {
        guard let name = text(node, for: "'secret'") else { return nil }
        guard SecretStore.isValidName(name.value) else {
            let suggestion = name.value.uppercased().replacingOccurrences(of: "-", with: "_")
            report(
                "invalid secret name '\(name.value)'", at: name.location,
                help: (SecretStore.isValidName(suggestion) ? "did you mean '\(suggestion)'? " : "")
                    + "secrets are named like environment variables: letters, digits and '_', "
                    + "starting with a letter or '_' (store one with `shortcuts secrets set NAME`)")
            return nil
        }
        return name
    }

    private func rate(_ node: Node) -> AutomationBlock.Rate? {
        guard let text = text(node, for: "'rate'") else { return nil }
        if let rate = AutomationBlock.Rate(parsing: text.value) { return rate }
        report(
            "invalid rate '\(text.value)'", at: text.location,
            help: "write the most requests per second, minute or hour: N/s, N/m or N/h, such as 10/s (N from 1 to 1000000)")
        return nil
    }

    /// `watch: { path, events, pattern, debounce }`.
    func convertWatch(_ node: Node, at keyLocation: SourceLocation) -> AutomationBlock.Watch? {
        if case .scalar = node, !Self.isNull(node) {
            report(
                "expected a mapping for 'watch', got \(describe(node))", at: location(of: node),
                help: "write the folder under 'path', such as 'watch: { path: ~/Downloads }'")
            return nil
        }
        guard let entries = mappingEntries(node, for: "'watch'") else { return nil }
        let errorsBefore = diagnostics.count
        for entry in entries.all where !Self.watchKeys.contains(entry.key.value) {
            reportUnknownKey(entry.key, message: "unknown key '\(entry.key.value)' in 'watch'", candidates: Self.watchKeys)
        }
        let path = entries["path"].flatMap { text($0.value, for: "'path'") }
        if let path, path.value.trimmingCharacters(in: .whitespaces).isEmpty {
            report("the folder's path is empty", at: path.location, help: "write a folder, such as '~/Downloads' or 'inbox'")
        }
        if entries["path"] == nil && !isMisspelled("path", in: entries) {
            report(
                "'watch' is missing required key 'path'", at: entries.location,
                help: "give the folder to watch, such as 'path: ~/Downloads'")
        }
        let events = entries.nonNull("events").flatMap(fileEvents)
        let pattern = entries.nonNull("pattern").flatMap(pattern)
        let debounce = entries.nonNull("debounce").flatMap { duration($0, for: "'debounce'") }
        if let debounce, debounce.value <= .zero {
            report(
                "debounce must be longer than 0", at: debounce.location,
                help: "write the quiet time that ends a burst of events, such as 500ms or 2s; 1s when not written")
        }
        guard diagnostics.count == errorsBefore, let path else { return nil }
        return AutomationBlock.Watch(
            path: path, events: events ?? [.created], pattern: pattern, debounce: debounce?.value ?? AutomationBlock.Watch.defaultDebounce,
            location: keyLocation)
    }

    /// `events: [created, modified]`, or one event alone.
    private func fileEvents(_ node: Node) -> [AutomationBlock.FileEvent]? {
        let names = AutomationBlock.FileEvent.allCases.map(\.rawValue)
        let items: [Node]
        switch node {
        case .sequence(let sequence): items = Array(sequence)
        case .scalar: items = [node]
        default:
            report("expected a list of events for 'events', got \(describe(node))", at: location(of: node), help: "such as [created, modified]")
            return nil
        }
        guard !items.isEmpty else {
            report(
                "'events' is empty, so nothing would start a run", at: location(of: node),
                help: "list one or more of \(Self.list(names)), or remove 'events' for [created]")
            return nil
        }
        var events: Set<AutomationBlock.FileEvent> = []
        var isValid = true
        for item in items {
            guard let name = text(item, for: "an event") else {
                isValid = false
                continue
            }
            guard let event = AutomationBlock.FileEvent(rawValue: name.value) else {
                isValid = false
                report(
                    "unknown event '\(name.value)'", at: name.location,
                    help: NameSuggestion.nearest(to: name.value, among: names).map { "did you mean '\($0)'?" }
                        ?? "the events are \(Self.list(names))")
                continue
            }
            events.insert(event)
        }
        return isValid ? events.sorted() : nil
    }

    /// `pattern: "*.pdf"`, checked the way `fnmatch` reads it.
    private func pattern(_ node: Node) -> Located<String>? {
        guard let text = text(node, for: "'pattern'") else { return nil }
        guard let problem = GlobSyntax.problem(in: text.value) else { return text }
        var location = text.location
        if case .scalar(let scalar) = node {
            let map = sourceMap(of: scalar)
            let start = map.position(at: min(problem.offset, max(text.value.unicodeScalars.count - 1, 0)))
            location = SourceLocation(file: file, line: start.line, column: start.column, length: problem.length)
        }
        report("invalid pattern '\(text.value)': \(problem.message)", at: location, help: problem.help)
        return nil
    }
}
