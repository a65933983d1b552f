import Yams

/// Converting steps: the kind key, the kind's settings and step ids.
extension WorkflowConverter {
    /// A list of steps; an empty value is an empty list.
    func convertSteps(_ node: Node, for what: String, depth: Int) -> [Step] {
        if Self.isNull(node) {
            return []
        }
        guard case .sequence(let sequence) = node else {
            report(
                "expected a list of steps for \(what), got \(describe(node))", at: location(of: node),
                help: "start each step with '- ', such as '- show: Hello'")
            return []
        }
        return sequence.compactMap { convertStep($0, depth: depth) }
    }

    func convertStep(_ node: Node, depth: Int) -> Step? {
        guard admitNode(at: node, depth: depth) else { return nil }
        guard case .mapping(let mapping) = node else {
            var help: String?
            if case .scalar(let scalar) = node, StepKeyword(rawValue: shield.restore(scalar.string)) != nil {
                help = "write '\(shield.restore(scalar.string)):' with a colon and its value"
            }
            report("expected a step (a mapping such as 'show: Hello'), got \(describe(node))", at: location(of: node), help: help)
            return nil
        }
        let entries = entries(of: mapping)
        let kindEntries = entries.all.filter { StepKeyword(rawValue: $0.key.value) != nil }
        let id = entries["id"].flatMap { registerStepID($0.value) }

        guard let kindEntry = kindEntries.first, let keyword = StepKeyword(rawValue: kindEntry.key.value) else {
            let unknown = entries.all.filter { !StepKeyword.allKeys.contains($0.key.value) }
            let kindNames = StepKeyword.allCases.map(\.rawValue)
            for entry in unknown {
                reportUnknownKey(entry.key, message: "unknown key '\(entry.key.value)' in step", candidates: kindNames + StepKeyword.allKeys)
            }
            if unknown.isEmpty && !reportCatchWithoutTry(entries) {
                report("step has no kind: expected one of \(Self.list(kindNames))", at: entries.location)
            }
            return nil
        }
        if kindEntries.count > 1 {
            let second = kindEntries[1]
            report(
                "step has more than one kind: '\(kindEntry.key.value)' and '\(second.key.value)'", at: second.key.location,
                help: "split it into one step for each kind")
            return nil
        }
        let stepDescription = "'\(keyword.rawValue)' step"
        for entry in entries.all
        where !StepKeyword.commonKeys.contains(entry.key.value) && entry.key.value != keyword.rawValue
            && !keyword.settingKeys.contains(entry.key.value)
        {
            let owners = StepKeyword.kinds(accepting: entry.key.value)
            if keyword == .menu && entry.key.value == "choose" {
                report(
                    "a menu's options are written out, each with its own steps", at: entry.key.location,
                    help: "to offer the elements of a list, write 'ask: Which one?' with 'choose: ${list}', then use its answer")
            } else if !owners.isEmpty {
                report(
                    "'\(entry.key.value)' is not allowed in a \(stepDescription)", at: entry.key.location,
                    help: "'\(entry.key.value)' belongs to \(Self.list(owners.map(\.rawValue))) steps")
            } else {
                reportUnknownKey(
                    entry.key, message: "unknown key '\(entry.key.value)' in \(stepDescription)",
                    candidates: ["id"] + keyword.settingKeys)
            }
        }
        let settings = StepSettings(keyword: keyword, kindEntry: kindEntry, entries: entries, depth: depth)
        let continueOnError = convertContinueOnError(entries["continueOnError"], keyword: keyword)
        let timeout = convertTimeout(entries["timeout"], keyword: keyword)
        guard let kind = convertKind(settings), let continueOnError, let timeout else { return nil }
        return Step(id: id, kind: kind, location: kindEntry.key.location, continueOnError: continueOnError, timeout: timeout)
    }

    /// What a kind's conversion reads from.
    struct StepSettings {
        let keyword: StepKeyword
        let kindEntry: MappingEntries.Entry
        let entries: MappingEntries
        let depth: Int

        var value: Node { kindEntry.value }
        subscript(key: String) -> Node? { entries[key]?.value }
    }

    private func registerStepID(_ node: Node) -> Located<String>? {
        guard let id = name(node, for: "'id'", role: "step id") else { return nil }
        if let first = stepIDLocations[id.value] {
            report(
                "duplicate step id '\(id.value)' (first used at \(Self.position(of: first, relativeTo: id.location)))",
                at: id.location,
                help: "give each step a different id")
            return nil
        }
        stepIDLocations[id.value] = id.location
        return id
    }

    /// Reports a missing required key of a step.
    private func required(_ key: String, in settings: StepSettings) -> Node? {
        if let node = settings[key] {
            return node
        }
        guard !isMisspelled(key, in: settings.entries) else { return nil }
        report("'\(settings.keyword.rawValue)' step is missing required key '\(key)'", at: settings.kindEntry.key.location)
        return nil
    }

    private func convertKind(_ settings: StepSettings) -> StepKind? {
        let depth = settings.depth
        let keyword = "'\(settings.keyword.rawValue)'"
        switch settings.keyword {
        case .perform:
            let intent = qualifiedName(settings.value, for: keyword, role: "intent name")
            let parameters = settings["with"].flatMap { namedValues($0, for: "'with'", depth: depth + 1) } ?? []
            let openWhenRun = settings["openWhenRun"].flatMap { boolean($0, for: "'openWhenRun'") }
            guard let intent else { return nil }
            return .perform(PerformStep(intent: intent, parameters: parameters, openWhenRun: openWhenRun))

        case .find:
            let entity = qualifiedName(settings.value, for: keyword, role: "entity name")
            let query = convertQuery(settings)
            guard let entity, let query else { return nil }
            return .find(FindStep(entity: entity, condition: query.condition, sortBy: query.sortBy, limit: query.limit))

        case .filter:
            let list = convertValue(settings.value, depth: depth + 1)
            let query = convertQuery(settings)
            guard let list, let query else { return nil }
            return .filter(FilterStep(list: list, condition: query.condition, sortBy: query.sortBy, limit: query.limit))

        case .show:
            return convertValue(settings.value, depth: depth + 1).map { .show(ShowStep(value: $0)) }

        case .set:
            let variable = name(settings.value, for: keyword, role: "variable name")
            let value = required("to", in: settings).flatMap { convertValue($0, depth: depth + 1) }
            guard let variable, let value else { return nil }
            return .set(SetStep(variable: variable, value: value))

        case .append:
            let value = convertValue(settings.value, depth: depth + 1)
            let variable = required("to", in: settings).flatMap { name($0, for: "'to'", role: "variable name") }
            guard let value, let variable else { return nil }
            return .append(AppendStep(value: value, variable: variable))

        case .if:
            let condition = convertIfCondition(settings.value, depth: depth + 1)
            let thenSteps = required("then", in: settings).map { convertSteps($0, for: "'then'", depth: depth + 1) }
            let elseSteps = settings["else"].map { convertSteps($0, for: "'else'", depth: depth + 1) } ?? []
            guard let condition, let thenSteps else { return nil }
            return .if(IfStep(condition: condition, thenSteps: thenSteps, elseSteps: elseSteps))

        case .repeat:
            let conditional = isConditionalRepeat(settings.value)
            let limited = conditional ? convertConditionalRepeat(settings.value, depth: depth + 1) : nil
            let mode = conditional ? limited?.mode : convertRepeatMode(settings.value, depth: depth + 1)
            let concurrency = conditional ? .some(nil) : repeatConcurrency(settings.value, depth: depth + 1)
            // Passes that run at the same time cannot `break` or `continue` one another.
            let concurrent = concurrency.flatMap { $0 } != nil
            let steps = required("steps", in: settings).map { node in
                concurrent ? convertConcurrentSteps(node, depth: depth + 1) : convertLoopSteps(node, depth: depth + 1)
            }
            guard let mode, let steps, let concurrency else { return nil }
            return .repeat(
                RepeatStep(mode: mode, steps: steps, maxIterations: limited?.maxIterations, concurrency: concurrency))

        case .menu:
            let prompt = convertValue(settings.value, depth: depth + 1)
            let options = required("options", in: settings).flatMap { convertMenuOptions($0, depth: depth + 1) }
            guard let prompt, let options else { return nil }
            return .menu(MenuStep(prompt: prompt, options: options))

        case .ask:
            let question = convertValue(settings.value, depth: depth + 1)
            let answerType = settings["type"].flatMap { text($0, for: "'type'") }
            let defaultAnswer = settings["default"].flatMap { convertValue($0, depth: depth + 1) }
            guard let question, let choice = convertChoice(settings, depth: depth + 1) else { return nil }
            return .ask(
                AskStep(question: question, answerType: answerType, defaultAnswer: defaultAnswer, choices: choice.list, multiple: choice.multiple))

        case .run:
            let workflow = text(settings.value, for: keyword)
            let inputs = settings["with"].flatMap { namedValues($0, for: "'with'", depth: depth + 1) } ?? []
            if let workflow, workflow.value.contains("${") {
                report("the workflow to run must be written out, not computed: '\(workflow.value)'", at: workflow.location)
                return nil
            }
            guard let workflow else { return nil }
            return .run(RunStep(workflow: workflow, inputs: inputs))

        case .wait:
            return duration(settings.value, for: keyword).map { .wait(WaitStep(duration: $0)) }

        case .stop:
            if Self.isNull(settings.value) {
                return .stop(StopStep(output: nil))
            }
            return convertValue(settings.value, depth: depth + 1).map { .stop(StopStep(output: $0)) }

        case .fail:
            let message = convertValue(settings.value, depth: depth + 1)
            let data = settings["data"].map { convertValue($0, depth: depth + 1) }
            guard let message, data != .some(nil) else { return nil }
            if Self.isNull(settings.value) {
                report("'fail' needs a message", at: settings.kindEntry.key.location, help: "write the reason, such as 'fail: the backup failed'")
                return nil
            }
            return .fail(FailStep(message: message, data: data ?? nil))

        case .comment:
            guard case .scalar(let scalar) = settings.value else {
                report("expected text for 'comment', got \(describe(settings.value))", at: location(of: settings.value))
                return nil
            }
            return .comment(CommentStep(text: shield.restore(scalar.string)))

        case .search:
            let query = convertValue(settings.value, depth: depth + 1)
            let entity = settings["entity"].flatMap { qualifiedName($0, for: "'entity'", role: "entity name") }
            let index = settings["index"].flatMap { text($0, for: "'index'") }
            let limit = settings["limit"].flatMap { convertLimit($0, depth: depth + 1) }
            let semantic = settings["semantic"].flatMap { boolean($0, for: "'semantic'") }
            guard let query else { return nil }
            if settings["limit"] != nil && limit == nil { return nil }
            if settings["entity"] != nil && entity == nil { return nil }
            if settings["semantic"] != nil && semantic == nil { return nil }
            return .search(SearchStep(query: query, entity: entity, index: index, limit: limit, semantic: semantic?.value ?? true))

        case .break, .continue:
            return convertLoopControl(settings)

        case .try:
            return convertTry(settings)

        case .parallel:
            return convertParallel(settings.value, depth: depth + 1).map { .parallel($0) }
        }
    }

    // MARK: - Kind settings

    /// `App.Name` or `Name`.
    func qualifiedName(_ node: Node, for what: String, role: String) -> QualifiedName? {
        guard let text = text(node, for: what) else { return nil }
        let parts = text.value.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy(NameSyntax.isName), let name = parts.last else {
            report("invalid \(role) '\(text.value)': expected 'App.Name' or 'Name'", at: text.location)
            return nil
        }
        let appName = parts.count > 1 ? parts.dropLast().joined(separator: ".") : nil
        return QualifiedName(appName: appName, name: name, location: text.location)
    }

    /// A mapping of names to values, such as `with:`.
    func namedValues(_ node: Node, for what: String, depth: Int) -> [NamedValue]? {
        guard let entries = mappingEntries(node, for: what) else { return nil }
        return entries.all.compactMap { entry in
            convertValue(entry.value, depth: depth + 1).map { NamedValue(name: entry.key, value: $0) }
        }
    }

    private func convertRepeatMode(_ node: Node, depth: Int) -> RepeatStep.Mode? {
        let keys = ["count", "each", "as", "concurrency"]
        guard case .mapping(let mapping) = node else {
            report(
                "expected a mapping such as '{ count: 3 }' or '{ each: ${list}, as: item }' for 'repeat', got \(describe(node))",
                at: location(of: node))
            return nil
        }
        let entries = entries(of: mapping)
        let unknownEntries = entries.all.filter { !keys.contains($0.key.value) }
        for entry in unknownEntries {
            reportUnknownKey(entry.key, message: "unknown key '\(entry.key.value)' in 'repeat'", candidates: keys)
        }
        switch (entries["count"], entries["each"]) {
        case (let count?, nil):
            if let asEntry = entries["as"] {
                report("'as' is only allowed with 'each'", at: asEntry.key.location)
                return nil
            }
            return convertValue(count.value, depth: depth + 1).map { .count($0) }
        case (nil, let each?):
            let itemName = entries["as"].flatMap { name($0.value, for: "'as'", role: "variable name") }
            if entries["as"] != nil && itemName == nil { return nil }
            return convertValue(each.value, depth: depth + 1).map { .each($0, itemName: itemName) }
        case (_?, let each?):
            report("'repeat' takes either 'count' or 'each', not both", at: each.key.location)
            return nil
        case (nil, nil):
            guard unknownEntries.isEmpty else { return nil }
            report(
                "'repeat' needs 'count' or 'each'", at: entries.location,
                help: "write '{ count: 3 }' or '{ each: ${list}, as: item }'")
            return nil
        }
    }

    private func convertMenuOptions(_ node: Node, depth: Int) -> [MenuStep.Option]? {
        guard let entries = mappingEntries(node, for: "'options'") else { return nil }
        guard !entries.all.isEmpty else {
            report(
                "a menu needs at least one option", at: entries.location,
                help: "map each option's title to its steps, such as 'Cancel: []'")
            return nil
        }
        return entries.all.map { entry in
            MenuStep.Option(title: entry.key, steps: convertSteps(entry.value, for: "option '\(entry.key.value)'", depth: depth + 1))
        }
    }
}
