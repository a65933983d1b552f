import Yams

/// Converting the `choose:` and `multiple:` of an `ask` step.
extension WorkflowConverter {
    /// What an `ask` offers: its `choose:` list (`nil` for a free answer) and `multiple:`;
    /// `nil` after an error.
    struct Choice {
        var list: ValueNode?
        var multiple: Bool
    }

    func convertChoice(_ settings: StepSettings, depth: Int) -> Choice? {
        let multipleNode = settings.entries["multiple"]
        let multiple = multipleNode.flatMap { boolean($0.value, for: "'multiple'") }
        if multipleNode != nil && multiple == nil { return nil }
        guard let chooseEntry = settings.entries["choose"] else {
            if let multipleNode {
                report("'multiple' is only allowed with 'choose'", at: multipleNode.key.location, help: "offer a list with 'choose: ${list}'")
                return nil
            }
            return Choice(list: nil, multiple: false)
        }
        if let typeEntry = settings.entries["type"] {
            report(
                "'type' is not allowed with 'choose': the answer is an element of the list", at: typeEntry.key.location,
                help: "remove 'type'")
            return nil
        }
        guard let list = convertValue(chooseEntry.value, depth: depth + 1) else { return nil }
        return Choice(list: list, multiple: multiple?.value ?? false)
    }
}
