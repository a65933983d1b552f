import IntentKit
import Yams

/// Reading YAML nodes: locations, mapping entries, and scalars of the expected kind.
extension WorkflowConverter {
    /// The reserved variable names, which steps, `set`, `append` and `as` cannot define; the
    /// last two (``ReservedRoot``) cannot name inputs either.
    static let reservedNames = ["input", "previous", "now", "index"] + ReservedRoot.allCases.map(\.rawValue)

    // MARK: - Locations

    func location(of node: Node) -> SourceLocation {
        if case .scalar(let scalar) = node {
            return location(of: sourceMap(of: scalar))
        }
        return location(atMark: node.mark)
    }

    /// The location of a parser mark, moved into the file.
    func location(atMark mark: Mark?, length: Int? = nil) -> SourceLocation {
        let point = source.clamped(line: mark?.line ?? 1, column: mark?.column ?? 1)
        return SourceLocation(file: file, line: point.line, column: point.column, length: length)
    }

    func location(of map: ScalarSourceMap) -> SourceLocation {
        let length =
            map.start.line == map.end.line && map.end.column > map.start.column
            ? map.end.column - map.start.column : nil
        return SourceLocation(file: file, line: map.start.line, column: map.start.column, length: length)
    }

    func sourceMap(of scalar: Node.Scalar) -> ScalarSourceMap {
        ScalarSourceMap(
            value: Array(shield.restore(scalar.string).unicodeScalars),
            quoting: Self.style(of: scalar),
            line: scalar.mark?.line ?? 1,
            column: scalar.mark?.column ?? 1,
            source: source
        )
    }

    static func style(of scalar: Node.Scalar) -> ScalarStyle {
        switch scalar.style {
        case .singleQuoted: return .singleQuoted
        case .doubleQuoted: return .doubleQuoted
        case .literal: return .literal
        case .folded: return .folded
        case .any, .plain: return .plain
        }
    }

    // MARK: - Node kinds

    static func isNull(_ node: Node) -> Bool {
        guard case .scalar(let scalar) = node else { return false }
        return CoreSchemaResolver.tag(of: scalar) == .null
    }

    /// Describes a node for messages: `a mapping`, `a list`, `an empty value` or the quoted text.
    func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence(let sequence): return sequence.count == 1 ? "a list of 1 value" : "a list of \(sequence.count) values"
        case .alias: return "an alias"
        case .scalar(let scalar):
            if Self.isNull(node) { return "an empty value" }
            let text = shield.restore(scalar.string)
            let firstLine = text.prefix { $0 != "\n" && $0 != "\r" }
            let shown = firstLine.count > 40 || firstLine.count < text.count ? firstLine.prefix(40) + "…" : firstLine
            return "'\(shown)'"
        }
    }

    // MARK: - Mappings

    /// The entries of a mapping, reporting keys that are not scalars and keys written twice.
    func entries(of mapping: Node.Mapping) -> MappingEntries {
        var firstLocations: [String: SourceLocation] = [:]
        var entries: [MappingEntries.Entry] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let keyScalar) = keyNode else {
                report("mapping keys must be plain text, got \(describe(keyNode))", at: location(of: keyNode))
                continue
            }
            let key = Located(shield.restore(keyScalar.string), at: location(of: keyNode))
            if let first = firstLocations[key.value] {
                report(
                    "duplicate key '\(key.value)' (first defined at \(Self.position(of: first, relativeTo: key.location)))",
                    at: key.location)
                continue
            }
            firstLocations[key.value] = key.location
            entries.append(.init(key: key, value: value))
        }
        let mappingLocation = location(of: Node.mapping(mapping))
        return MappingEntries(all: entries, location: mappingLocation)
    }

    /// The entries of a node that must be a mapping; an empty value counts as an empty mapping.
    func mappingEntries(_ node: Node, for what: String) -> MappingEntries? {
        if case .mapping(let mapping) = node {
            return entries(of: mapping)
        }
        if Self.isNull(node) {
            return MappingEntries(all: [], location: location(of: node))
        }
        report("expected a mapping for \(what), got \(describe(node))", at: location(of: node))
        return nil
    }

    /// Whether a key that is missing is probably written misspelled among `entries`, in which
    /// case the unknown key's "did you mean" already tells what is wrong.
    func isMisspelled(_ key: String, in entries: MappingEntries) -> Bool {
        entries.all.contains { $0.key.value != key && NameSuggestion.nearest(to: $0.key.value, among: [key]) == key }
    }

    // MARK: - Scalars

    /// The text of a scalar that must not be empty, a list or a mapping.
    func text(_ node: Node, for what: String) -> Located<String>? {
        guard case .scalar(let scalar) = node, !Self.isNull(node) else {
            report("expected text for \(what), got \(describe(node))", at: location(of: node))
            return nil
        }
        return Located(shield.restore(scalar.string), at: location(of: node))
    }

    /// A name made of letters, digits and `_`; `role` describes it in messages, such as `step id`.
    func name(_ node: Node, for what: String, role: String, allowReserved: Bool = false) -> Located<String>? {
        guard let name = text(node, for: what) else { return nil }
        guard checkName(name, kind: role) else { return nil }
        if !allowReserved && Self.reservedNames.contains(name.value) {
            report(
                "'\(name.value)' is a reserved name and cannot be used as a \(role)", at: name.location,
                help: "choose another name; \(Self.reservedNames.map { "'\($0)'" }.joined(separator: ", ")) are built in")
            return nil
        }
        return name
    }

    /// Checks that a name is made of letters, digits and `_`, reporting it otherwise.
    func checkName(_ name: Located<String>, kind: String) -> Bool {
        guard NameSyntax.isName(name.value) else {
            report("invalid \(kind) '\(name.value)': use letters, digits and '_', starting with a letter or '_'", at: name.location)
            return false
        }
        return true
    }

    /// `true` or `false`.
    func boolean(_ node: Node, for what: String) -> Located<Bool>? {
        guard case .scalar(let scalar) = node, CoreSchemaResolver.tag(of: scalar) == .bool else {
            report("expected true or false for \(what), got \(describe(node))", at: location(of: node))
            return nil
        }
        return Located(scalar.string.lowercased() == "true", at: location(of: node))
    }

    /// A non-negative integer literal.
    func count(_ node: Node, for what: String, minimum: Int) -> Located<Int>? {
        guard case .scalar(let scalar) = node, CoreSchemaResolver.tag(of: scalar) == .int,
            let value = Int(scalar.string), value >= minimum
        else {
            report("expected an integer of at least \(minimum) for \(what), got \(describe(node))", at: location(of: node))
            return nil
        }
        return Located(value, at: location(of: node))
    }

    /// A duration such as `500ms`, `30s`, `10m`, `1h30m` or `2d`.
    func duration(_ node: Node, for what: String) -> Located<Duration>? {
        guard let text = text(node, for: what) else { return nil }
        if let duration = DurationSyntax.parse(text.value) {
            return Located(duration, at: text.location)
        }
        let isNumber: Bool
        if case .scalar(let scalar) = node, let tag = CoreSchemaResolver.tag(of: scalar) {
            isNumber = tag == .int || tag == .float
        } else {
            isNumber = false
        }
        report(
            "invalid duration '\(text.value)' for \(what)",
            at: text.location,
            help: isNumber
                ? "add a unit, such as '\(text.value)s'"
                : "use a number and a unit, such as '500ms', '30s', '10m', '1h' or '1h30m'"
        )
        return nil
    }

    /// One of a fixed set of words, with a suggestion when misspelled.
    func choice<Choice: RawRepresentable & CaseIterable>(_ node: Node, for what: String, as type: Choice.Type) -> Choice?
    where Choice.RawValue == String {
        guard let text = text(node, for: what) else { return nil }
        if let choice = Choice(rawValue: text.value) {
            return choice
        }
        let names = Choice.allCases.map(\.rawValue)
        let help = NameSuggestion.nearest(to: text.value, among: names).map { "did you mean '\($0)'?" }
        report(
            "invalid value '\(text.value)' for \(what): expected \(Self.list(names))",
            at: text.location,
            help: help
        )
        return nil
    }

    /// `line 4`, or `line 4, column 12` when both locations are on the same line.
    static func position(of first: SourceLocation, relativeTo second: SourceLocation) -> String {
        first.line == second.line ? "line \(first.line), column \(first.column)" : "line \(first.line)"
    }

    /// `'a', 'b' or 'c'`.
    static func list(_ names: [String]) -> String {
        let quoted = names.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")
    }
}
