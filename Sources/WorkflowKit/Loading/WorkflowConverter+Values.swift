import Yams

/// Converting values: literals, expressions, templates, lists and mappings.
extension WorkflowConverter {
    /// Any value. Scalars are parsed for `${…}` expressions.
    func convertValue(_ node: Node, depth: Int) -> ValueNode? {
        guard admitNode(at: node, depth: depth) else { return nil }
        switch node {
        case .scalar(let scalar):
            return convertScalar(scalar)
        case .sequence(let sequence):
            let elements = sequence.compactMap { convertValue($0, depth: depth + 1) }
            return .list(elements, location: location(of: node))
        case .mapping(let mapping):
            let entries = entries(of: mapping).all.compactMap { entry in
                convertValue(entry.value, depth: depth + 1).map { NamedValue(name: entry.key, value: $0) }
            }
            return .mapping(entries, location: location(of: node))
        case .alias:
            report("unexpected alias", at: location(of: node))
            return nil
        }
    }

    /// A scalar: a literal, exactly one expression, or a template mixing text and expressions.
    func convertScalar(_ scalar: Node.Scalar) -> ValueNode? {
        let map = sourceMap(of: scalar)
        let location = location(of: map)
        guard let tag = CoreSchemaResolver.tag(of: scalar) else {
            let tagLocation = self.location(atMark: scalar.mark, length: Node.scalar(scalar).tag.rawValue.unicodeScalars.count)
            report(
                "unsupported YAML tag '\(Node.scalar(scalar).tag.rawValue)'", at: tagLocation,
                help: "only the standard tags !!str, !!int, !!float, !!bool, !!null and !!timestamp are allowed")
            return nil
        }
        let rawText = shield.restore(scalar.string)
        let literal = ScalarLiteral(text: rawText, rawText: rawText, tag: tag, style: Self.style(of: scalar), location: location)
        guard rawText.unicodeScalars.contains("$") else {
            return .literal(literal)
        }
        let parsed = TemplateParser(file: file, position: map.position(at:)).parse(rawText)
        guard parsed.diagnostics.isEmpty else {
            for diagnostic in parsed.diagnostics {
                report(diagnostic.message, at: diagnostic.location, help: diagnostic.help)
            }
            return nil
        }
        let template = Template(segments: parsed.segments, location: location)
        if let text = template.literalText {
            var unescaped = literal
            unescaped.text = text
            return .literal(unescaped)
        }
        if let expression = template.singleExpression {
            return .expression(expression)
        }
        return .template(template)
    }

    /// `limit:` — a non-negative integer literal or an expression.
    func convertLimit(_ node: Node, depth: Int) -> ValueNode? {
        guard let value = convertValue(node, depth: depth) else { return nil }
        switch value {
        case .expression:
            return value
        case .literal(let literal) where literal.tag == .int && (Int(literal.text) ?? -1) >= 0:
            return value
        default:
            report("expected a non-negative integer or an expression for 'limit', got \(describe(node))", at: value.location)
            return nil
        }
    }
}
