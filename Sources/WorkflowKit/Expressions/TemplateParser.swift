/// Splits a scalar's text into text and `${…}` expressions, collecting every syntax error.
///
/// Grammar of the inside of `${…}` (spaces are allowed only around the whole path):
///
///     path      = name { "." name | "[" digits "]" }
///     name      = (letter | "_") { letter | digit | "_" }
///
/// `$${` is the escape for a literal `${`. An expression ends at the `}` that balances the
/// braces after its `${` (``ClosingBraces``).
struct TemplateParser {
    struct Result {
        var segments: [Template.Segment]
        var diagnostics: [Diagnostic]
    }

    /// The file name for locations.
    let file: String
    /// The line and column of the scalar at an offset of the text (offsets `0...count`).
    let position: (Int) -> (line: Int, column: Int)

    func parse(_ text: String) -> Result {
        let scalars = Array(text.unicodeScalars)
        var segments: [Template.Segment] = []
        var diagnostics: [Diagnostic] = []
        var pendingText = String.UnicodeScalarView()

        func flushText() {
            guard !pendingText.isEmpty else { return }
            segments.append(.text(String(pendingText)))
            pendingText = String.UnicodeScalarView()
        }

        // Where each `${` closes, read once for all of them when the first one is met.
        var braces: ClosingBraces?
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "$", index + 2 < scalars.count, scalars[index + 1] == "$", scalars[index + 2] == "{" {
                pendingText.append(contentsOf: "${".unicodeScalars)
                index += 3
                continue
            }
            guard scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "{" else {
                pendingText.append(scalar)
                index += 1
                continue
            }
            if braces == nil { braces = ClosingBraces(scalars, in: (index + 2)..<scalars.count) }
            guard let closing = braces?.closingBrace(after: index + 2) ?? scalars[(index + 2)...].firstIndex(of: "}") else {
                diagnostics.append(
                    .error(
                        "unterminated expression: '${' has no matching '}'",
                        at: location(from: index, to: index + 2),
                        help: "write '$${' for a literal '${'"
                    ))
                index = scalars.count
                break
            }
            let length = scalars[index...closing].reduce(0) { $0 + UTF8.width($1) }
            guard length <= ExpressionLimits.maximumLength else {
                diagnostics.append(
                    .error(
                        "the expression is too long: \(length) bytes, more than \(ExpressionLimits.maximumLength) (64 KiB)",
                        at: location(from: index, to: index + 2), help: ExpressionLimits.help))
                index = closing + 1
                continue
            }
            switch parseExpression(scalars, opening: index, closing: closing) {
            case .success(let expression):
                flushText()
                segments.append(.expression(expression))
            case .failure(let pathDiagnostic, let pathOffset):
                switch parseOperations(scalars, opening: index, closing: closing) {
                case .success(let expression):
                    flushText()
                    segments.append(.expression(expression))
                case .failure(let diagnostic, let offset):
                    // The error that reads furthest explains the expression best; at the same
                    // place, the path's words are kept where they are more precise.
                    let pathIsPrecise =
                        pathDiagnostic.message.hasSuffix("integer index") || diagnostic.message.hasSuffix("expected a value")
                        || diagnostic.message.hasSuffix("number is too large")
                    diagnostics.append(offset > pathOffset || (offset == pathOffset && !pathIsPrecise) ? diagnostic : pathDiagnostic)
                }
            }
            index = closing + 1
        }
        flushText()
        return Result(segments: segments, diagnostics: diagnostics)
    }

    // MARK: - Expressions

    private enum ParseOutcome {
        case success(WorkflowExpression)
        /// A problem, and the offset it was found at.
        case failure(Diagnostic, Int)
    }

    /// Parses `scalars[opening...closing]` with operators, literals and calls.
    private func parseOperations(_ scalars: [Unicode.Scalar], opening: Int, closing: Int) -> ParseOutcome {
        var sourceText = ""
        sourceText.unicodeScalars.append(contentsOf: scalars[opening...closing])
        let whole = location(from: opening, to: closing + 1)
        do throws(ExpressionSyntaxError) {
            var lexer = ExpressionLexer(scalars, from: opening + 2, to: closing)
            var parser = ExpressionParser(tokens: try lexer.tokens()) { location(from: $0, to: max($1, $0 + 1)) }
            let tree = try parser.parse()
            if let path = tree.path {
                return .success(WorkflowExpression(variable: path.variable, components: path.components, location: whole))
            }
            var expression = WorkflowExpression(variable: Located("", at: whole), components: [], location: whole)
            expression.tree = tree
            expression.sourceText = sourceText
            return .success(expression)
        } catch {
            return .failure(
                .error(
                    "invalid expression '\(Self.excerpt(of: sourceText))': \(error.message)", at: location(from: error.offset, to: error.offset + 1),
                    help: error.help),
                error.offset)
        }
    }

    /// Parses `scalars[opening...closing]`, which starts with `${` and ends with `}`.
    private func parseExpression(_ scalars: [Unicode.Scalar], opening: Int, closing: Int) -> ParseOutcome {
        var sourceText = ""
        sourceText.unicodeScalars.append(contentsOf: scalars[opening...closing])
        let whole = location(from: opening, to: closing + 1)

        func failure(_ problem: String, at offset: Int, help: String? = nil) -> ParseOutcome {
            .failure(
                .error("invalid expression '\(Self.excerpt(of: sourceText))': \(problem)", at: location(from: offset, to: offset + 1), help: help),
                offset)
        }

        var cursor = opening + 2
        func skipSpaces() {
            while cursor < closing, scalars[cursor] == " " || scalars[cursor] == "\t" { cursor += 1 }
        }
        func readName() -> Located<String>? {
            guard cursor < closing, NameSyntax.isNameStart(scalars[cursor]) else { return nil }
            let start = cursor
            while cursor < closing, NameSyntax.isNameContinuation(scalars[cursor]) { cursor += 1 }
            var name = ""
            name.unicodeScalars.append(contentsOf: scalars[start..<cursor])
            return Located(name, at: location(from: start, to: cursor))
        }

        skipSpaces()
        if cursor == closing {
            return .failure(
                .error(
                    "empty expression '\(sourceText)'",
                    at: whole,
                    help: "write a variable name inside, like '${previous}'"
                ), Int.max)
        }
        guard let variable = readName() else {
            return failure("expected a variable name", at: cursor)
        }
        // `true`, `false` and `null` are literals, which the parser of operations reads.
        if ["true", "false", "null"].contains(variable.value) {
            return failure("'\(variable.value)' is a literal, not a variable", at: cursor)
        }
        var components: [WorkflowExpression.Component] = []
        while cursor < closing {
            switch scalars[cursor] {
            case "." where components.count + 2 > ExpressionLimits.maximumDepth, "[" where components.count + 2 > ExpressionLimits.maximumDepth:
                // Each component is a level, as it is in an expression with operators.
                let tooDeep = ExpressionSyntaxError.nestedTooDeeply(at: cursor)
                return failure(tooDeep.message, at: cursor, help: tooDeep.help)
            case ".":
                cursor += 1
                guard let name = readName() else {
                    return failure("expected a property name after '.'", at: cursor)
                }
                components.append(.property(name))
            case "[":
                cursor += 1
                skipSpaces()
                let digitsStart = cursor
                var value = 0
                var overflowed = false
                while cursor < closing, let digit = scalars[cursor].asciiDigitValue {
                    let (multiplied, overflow1) = value.multipliedReportingOverflow(by: 10)
                    let (added, overflow2) = multiplied.addingReportingOverflow(digit)
                    overflowed = overflowed || overflow1 || overflow2
                    value = added
                    cursor += 1
                }
                guard cursor > digitsStart else {
                    return failure("expected a non-negative integer index", at: cursor)
                }
                guard !overflowed else {
                    return failure("index is too large", at: digitsStart)
                }
                let index = Located(value, at: location(from: digitsStart, to: cursor))
                skipSpaces()
                guard cursor < closing, scalars[cursor] == "]" else {
                    return failure("expected ']'", at: cursor)
                }
                cursor += 1
                components.append(.index(index))
            case " ", "\t":
                skipSpaces()
                if cursor < closing {
                    return failure("unexpected '\(Character(scalars[cursor]))'", at: cursor)
                }
            default:
                return failure("unexpected '\(Character(scalars[cursor]))'", at: cursor)
            }
        }
        return .success(WorkflowExpression(variable: variable, components: components, location: whole))
    }

    /// The expression as quoted in a message: all of it, or its start when it is long.
    private static func excerpt(of sourceText: String) -> String {
        let shown = 60
        guard sourceText.unicodeScalars.count > shown + 10 else { return sourceText }
        var start = ""
        start.unicodeScalars.append(contentsOf: sourceText.unicodeScalars.prefix(shown))
        return start + "…"
    }

    // MARK: - Locations

    /// The location of `start..<end`; the length is given only when both ends are on one line.
    private func location(from start: Int, to end: Int) -> SourceLocation {
        let first = position(start)
        let last = position(end)
        let length = first.line == last.line && last.column > first.column ? last.column - first.column : nil
        return SourceLocation(file: file, line: first.line, column: first.column, length: length)
    }
}

extension Unicode.Scalar {
    fileprivate var asciiDigitValue: Int? {
        ("0"..."9").contains(self) ? Int(value - 48) : nil
    }
}
