#if Web
    import Foundation
    import IntentKit
    import WorkflowKit

    /// The form that runs a workflow, made from its `input:` block: a control per input suited to
    /// its type, with whether it is required, its default and its description; and, once
    /// submitted, the values read back and each input's error.
    ///
    /// | Type | Control |
    /// |---|---|
    /// | `String`, `URL`, `File`, an entity | a text field (an entity by its identifier or title) |
    /// | `Int`, `Double` | a number field |
    /// | `Bool` | a checkbox |
    /// | `Date` | a date and time (`datetime-local`, read in the dashboard's time zone) |
    /// | an enum | a list of its cases |
    /// | `[T]` | a text area, one value per line |
    ///
    /// An empty field is not given: the input takes its default, or is `null` with `required:
    /// false`; a required input left empty is an error.
    struct RunForm: Sendable {
        /// One input's control.
        struct Field: Sendable {
            struct Option: Sendable {
                var value: String
                var title: String
                var isSelected: Bool
            }

            var name: String
            var controlID: String
            var fieldName: String
            var type: String
            var description: String?
            var defaultText: String?
            var isRequired: Bool
            var isCheckbox = false
            var isSelect = false
            var isTextArea = false
            var isInput = false
            var inputType = "text"
            var step: String?
            var value = ""
            var isChecked = false
            var options: [Option] = []
            var hasEmptyOption = false
            var isList = false
            var error: String?
            var location: String
        }

        /// An input's error, for the summary above the form.
        struct FieldError: Sendable {
            var name: String
            var controlID: String
            var message: String
            var location: String
        }

        var action: String
        var fields: [Field]
        var errors: [FieldError]
        var hasErrors: Bool

        /// The form of a workflow, with the values of a submitted form and the errors found in them.
        init(
            workflow: Workflow, fileName: String, catalog: IntentCatalog, zone: TimeZone, submitted: FormFields? = nil, errors: [String: String] = [:]
        ) {
            action = WorkflowFiles.href(fileName) + "/run"
            fields = workflow.inputs.map { declaration in
                Self.field(
                    declaration, type: InputTypes.type(named: declaration.type.value, in: catalog), workflow: workflow, submitted: submitted,
                    error: errors[declaration.name.value])
            }
            self.errors = workflow.inputs.compactMap { declaration in
                errors[declaration.name.value].map {
                    FieldError(
                        name: declaration.name.value, controlID: Self.controlID(declaration.name.value), message: $0,
                        location: Self.location(declaration.name.location))
                }
            }
            hasErrors = !self.errors.isEmpty
        }

        static func controlID(_ name: String) -> String { "input-" + name }
        static func fieldName(_ name: String) -> String { "input." + name }

        static func location(_ location: SourceLocation) -> String {
            "\(location.file):\(location.line):\(location.column)"
        }

        private static func field(
            _ declaration: InputDeclaration, type: IntentValueType?, workflow: Workflow, submitted: FormFields?, error: String?
        ) -> Field {
            let name = declaration.name.value
            var field = Field(
                name: name, controlID: controlID(name), fieldName: fieldName(name), type: declaration.type.value,
                description: declaration.description, defaultText: declaration.defaultValue.map { defaultText($0, in: workflow) },
                isRequired: declaration.isRequired, error: error, location: location(declaration.name.location))
            let given = submitted?[fieldName(name)]
            switch type?.nonOptional {
            case .bool?:
                field.isCheckbox = true
                if let submitted {
                    field.isChecked = submitted[fieldName(name)] != nil
                } else if case .literal(let literal)? = declaration.defaultValue {
                    field.isChecked = ["true", "yes", "on", "1"].contains(literal.text.lowercased())
                }
            case .enumeration(let reference)?:
                field.isSelect = true
                let chosen =
                    given
                    ?? (declaration.defaultValue.flatMap { node -> String? in
                        if case .literal(let literal) = node { return literal.text }
                        return nil
                    })
                field.options = reference.cases.map { option in
                    .init(value: option.value, title: option.title, isSelected: option.value == chosen || option.title == chosen)
                }
                field.hasEmptyOption = !field.options.contains(where: \.isSelected) || !declaration.isRequired
            case .list?:
                field.isTextArea = true
                field.isList = true
                field.value = given ?? ""
            default:
                field.isInput = true
                field.value = given ?? ""
                switch type?.nonOptional {
                case .int?:
                    field.inputType = "number"
                    field.step = "1"
                case .double?:
                    field.inputType = "number"
                    field.step = "any"
                case .date?: field.inputType = "datetime-local"
                case .url?: field.inputType = "url"
                default: field.inputType = "text"
                }
            }
            return field
        }

        /// A default as the form shows it: a literal's text, a list's elements, else the source
        /// from the default's position to the end of its line.
        private static func defaultText(_ node: ValueNode, in workflow: Workflow) -> String {
            switch node {
            case .literal(let literal):
                return literal.text
            case .list(let elements, _):
                return elements.map { defaultText($0, in: workflow) }.joined(separator: ", ")
            default:
                let lines = workflow.sourceText.split(separator: "\n", omittingEmptySubsequences: false)
                let location = node.location
                guard location.line >= 1, location.line <= lines.count else { return "" }
                let line = Array(lines[location.line - 1].unicodeScalars)
                var text = ""
                text.unicodeScalars.append(contentsOf: line.dropFirst(max(location.column - 1, 0)))
                return text.trimmingCharacters(in: .whitespaces)
            }
        }
    }

    extension RunForm {
        /// Reads a submitted form's values for a workflow's inputs, converted to each input's type
        /// as a run converts them; an input whose value does not convert, or a required input left
        /// empty, gets an error instead.
        ///
        /// - Returns: The values of the inputs given, and the errors by input name.
        static func values(
            from form: FormFields, for workflow: Workflow, catalog: IntentCatalog, times: TimeText
        ) -> (values: [String: IntentValue], errors: [String: String]) {
            var values: [String: IntentValue] = [:]
            var errors: [String: String] = [:]
            for declaration in workflow.inputs {
                let name = declaration.name.value
                let type = InputTypes.type(named: declaration.type.value, in: catalog)
                let text = form[fieldName(name)]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                var given: IntentValue?
                switch type?.nonOptional {
                case .bool?:
                    given = .bool(form[fieldName(name)] != nil)
                case .list?:
                    let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                    given = lines.isEmpty ? nil : .list(lines.map(IntentValue.string))
                case .date?:
                    guard !text.isEmpty else { break }
                    guard let date = times.parse(text) else {
                        errors[name] = "'\(text)' is not a date and time such as 2026-03-08T09:00"
                        continue
                    }
                    given = .date(date)
                default:
                    given = text.isEmpty ? nil : .string(text)
                }
                guard let given else {
                    if declaration.isRequired { errors[name] = "a value is required" }
                    continue
                }
                guard let type else {
                    values[name] = given
                    continue
                }
                do {
                    values[name] = try ValueCoercion.coerce(given, to: type)
                } catch {
                    errors[name] = "\(error)"
                }
            }
            return (values, errors)
        }
    }
#endif
