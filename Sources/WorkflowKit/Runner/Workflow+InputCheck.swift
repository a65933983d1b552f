import IntentKit

extension Workflow {
    /// Checks input values against the workflow's `input:` before a run starts: every name is
    /// declared, every required input is given, and every value converts to its input's type
    /// (entities are looked up by the run, through their query). The messages are those the
    /// run itself reports, located at the input's declaration, all of them at once.
    ///
    /// A server checks a request's inputs this way and refuses the request with the
    /// messages, without starting a run:
    ///
    /// ```swift
    /// do {
    ///     try workflow.checkInputs(["title": .string("Emma"), "count": .string("three")], catalog: catalog)
    /// } catch {
    ///     print(error.rendered())
    ///     // Workflows/add.yaml:4:3: error: input 'count' expects Int: cannot use String 'three' as Int (write a whole number such as 3)
    ///     //     4 |   count: Int
    ///     //       |   ^~~~~
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - values: The values by input name, such as a request's JSON object.
    ///   - catalog: The installed apps, which define entity and enum types.
    /// - Throws: ``DiagnosticError`` with one diagnostic per unknown, missing or mistyped input.
    public func checkInputs(_ values: [String: IntentValue], catalog: IntentCatalog) throws(DiagnosticError) {
        var diagnostics = values.keys.sorted().compactMap { name in
            inputs.contains { $0.name.value == name } ? nil : unknownInputDiagnostic(name)
        }
        for declaration in inputs {
            let name = declaration.name.value
            let type = InputTypes.type(named: declaration.type.value, in: catalog)
            guard let value = values[name] else {
                if declaration.isRequired {
                    diagnostics.append(
                        .error(
                            "missing input '\(name)' (\(declaration.type.value))", at: declaration.name.location,
                            help: declaration.description.map { "give '\(name)': \($0)" } ?? "give '\(name)' a value"))
                }
                continue
            }
            guard let type, type != .any, type != .string || !value.isNull else { continue }
            do {
                _ = try ValueCoercion.coerce(value, to: type)
            } catch {
                diagnostics.append(.error("input '\(name)' expects \(declaration.type.value): \(error)", at: declaration.name.location))
            }
        }
        guard diagnostics.isEmpty else { throw DiagnosticError(diagnostics, sources: [fileName: sourceText]) }
    }

    /// The error for a value given to an input the workflow does not declare, at the top of
    /// its file, with the nearest declared name.
    func unknownInputDiagnostic(_ name: String) -> Diagnostic {
        let declared = inputs.map(\.name.value)
        return .error(
            "'\(fileName)' has no input '\(name)'", at: SourceLocation(file: fileName, line: 1, column: 1),
            help: NameSuggestion.nearest(to: name, among: declared).map { "did you mean '\($0)'?" }
                ?? (declared.isEmpty ? "it declares no inputs" : "its inputs are: " + declared.joined(separator: ", ")))
    }
}
