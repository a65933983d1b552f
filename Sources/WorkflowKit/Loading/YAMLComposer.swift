import Yams

/// Parses YAML text into a Yams node tree, turning every parser failure into a located diagnostic.
///
/// Expressions are shielded first (see ``ExpressionShield``). Yams rejects a whole document
/// when a mapping repeats a key, so every repeated key, found in one pass by
/// ``DuplicateKeyFinder``, is renamed with a placeholder before the one parse that builds the
/// tree: loading takes time in proportion to the file, however many keys it repeats. The
/// converter, which sees the restored names, then reports each repeat where it occurs,
/// together with every other problem of the file.
enum YAMLComposer {
    /// The outcome of composing.
    enum Outcome {
        /// The root node (`nil` for a file without any document) and the shield to restore scalars with.
        case document(Node?, ExpressionShield)
        /// The text is not valid YAML.
        case failure(Diagnostic)
    }

    /// The most alias references (`*name`) accepted. Each can stand for a whole subtree, so a
    /// few dozen nested aliases can describe billions of values; workflows need only a few.
    static let maximumAliasCount = 100

    static func compose(_ text: String, source: SourceText, file: String) -> Outcome {
        var shield = ExpressionShield(text: text)
        if let offset = offsetOfExcessAlias(in: shield.scalars) {
            let point = source.point(atScalarOffset: offset)
            return .failure(
                .error(
                    "too many aliases: more than \(maximumAliasCount) '*' references",
                    at: SourceLocation(file: file, line: point.line, column: point.column),
                    help: "write the repeated values out instead of referring to anchors"
                ))
        }
        if let unrenamed = renameRepeatedKeys(in: &shield, source: source) {
            return .failure(
                .error(
                    "duplicate key '\(shield.restore(unrenamed.name))'",
                    at: location(line: unrenamed.line, column: unrenamed.column, source: source, file: file)))
        }
        do {
            let root = try Yams.compose(yaml: shield.text, CoreSchemaResolver.parsingResolver)
            return .document(root, shield)
        } catch let error as YamlError {
            if case .duplicatedKeysInMapping(let duplicates, let context) = error {
                let name = duplicates.first.map(shield.restore) ?? ""
                return .failure(
                    .error("duplicate key '\(name)'", at: location(of: context.mark, source: source, file: file)))
            }
            return .failure(diagnostic(for: error, shield: shield, source: source, file: file))
        } catch {
            return .failure(.error("invalid YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1)))
        }
    }

    /// Renames every repeated key, or, when a repeat cannot be renamed, the first occurrence
    /// of its key, so that Yams accepts the mappings.
    ///
    /// - Returns: The first repeat left as written because no placeholder was left, if any.
    private static func renameRepeatedKeys(in shield: inout ExpressionShield, source: SourceText) -> DuplicateKeyFinder.RepeatedKey? {
        let repeats = DuplicateKeyFinder.repeatedKeys(in: shield.text)
        var offsets: [Int] = []
        var repeatOfOffset: [Int] = []
        var renamed: Set<Int> = []
        for (index, repeated) in repeats.enumerated() {
            let offset =
                renameableOffset(line: repeated.line, column: repeated.column, in: shield, source: source)
                ?? renameableOffset(line: repeated.firstLine, column: repeated.firstColumn, in: shield, source: source)
            if let offset, renamed.insert(offset).inserted {
                offsets.append(offset)
                repeatOfOffset.append(index)
            }
        }
        let replaced = shield.replace(atScalarOffsets: offsets)
        return replaced < offsets.count ? repeats[repeatOfOffset[replaced]] : nil
    }

    /// The offset of the first alias reference beyond ``maximumAliasCount``, if any. An alias is
    /// a `*` that starts a token (after a space, a line break or a flow or block indicator) and is
    /// followed by a name; a `*` inside quoted text may be counted too, which only matters for
    /// files with more than a hundred of them.
    private static func offsetOfExcessAlias(in scalars: [Unicode.Scalar]) -> Int? {
        let tokenStarts: Set<Unicode.Scalar> = [" ", "\t", "[", "{", ",", ":", "-", "?"]
        let nameEnds: Set<Unicode.Scalar> = [" ", "\t", "[", "]", "{", "}", ",", "*"]
        var count = 0
        for index in scalars.indices where scalars[index] == "*" {
            let startsToken = index == 0 || tokenStarts.contains(scalars[index - 1]) || SourceText.isLineBreak(scalars[index - 1])
            let next = index + 1 < scalars.count ? scalars[index + 1] : " "
            guard startsToken, !nameEnds.contains(next), !SourceText.isLineBreak(next) else { continue }
            count += 1
            if count > maximumAliasCount {
                return index
            }
        }
        return nil
    }

    /// The offset of a character of the key starting at `line` and `column` that can be replaced
    /// without changing how the line parses: the first character of a plain key, or the first
    /// character inside a quoted one.
    private static func renameableOffset(line: Int, column: Int, in shield: ExpressionShield, source: SourceText) -> Int? {
        guard line >= 1, line <= source.lineStarts.count, column >= 1 else { return nil }
        let offset = source.lineStarts[line - 1] + column - 1
        let scalars = shield.scalars
        guard scalars.indices.contains(offset) else { return nil }
        let first = scalars[offset]
        if first == "\"" || first == "'" {
            let inside = offset + 1
            guard scalars.indices.contains(inside), isOrdinary(scalars[inside]), scalars[inside] != "\\" else { return nil }
            return inside
        }
        return isOrdinary(first) ? offset : nil
    }

    private static func isOrdinary(_ scalar: Unicode.Scalar) -> Bool {
        let indicators: Set<Unicode.Scalar> = [
            "-", "?", ":", ",", "[", "]", "{", "}", "#", "&", "*", "!", "|", ">", "'", "\"", "%", "@", "`"
        ]
        return !indicators.contains(scalar) && scalar != " " && scalar != "\t" && !SourceText.isLineBreak(scalar)
            && scalar.value >= 0x20
    }

    private static func location(of mark: Mark, source: SourceText, file: String) -> SourceLocation {
        location(line: mark.line, column: mark.column, source: source, file: file)
    }

    private static func location(line: Int, column: Int, source: SourceText, file: String) -> SourceLocation {
        let point = source.clamped(line: line, column: column)
        return SourceLocation(file: file, line: point.line, column: point.column)
    }

    private static func diagnostic(for error: YamlError, shield: ExpressionShield, source: SourceText, file: String) -> Diagnostic {
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let location = location(of: mark, source: source, file: file)
            if problem.hasPrefix("Maximum nesting level reached") {
                return .error("the workflow is nested too deeply: more than 1000 levels", at: location)
            }
            if problem == "but found another document" {
                return .error(
                    "a workflow file must contain a single YAML document",
                    at: location,
                    help: "remove the '---' that starts a second document"
                )
            }
            var message = "invalid YAML: \(shield.restore(problem))"
            if let context {
                message += " (\(shield.restore(context.text)) at line \(context.mark.line), column \(context.mark.column))"
            }
            let atTab =
                source.line(location.line).map { line in
                    location.column <= line.count && line[location.column - 1] == "\t"
                } ?? false
            return .error(message, at: location, help: atTab ? "YAML does not allow tabs for indentation; use spaces" : nil)
        case .reader(let problem, let offset, _, _):
            var point = (line: 1, column: 1)
            if let offset {
                let text = shield.text
                if let index = text.index(text.startIndex, offsetBy: offset, limitedBy: text.endIndex) {
                    point = source.point(atScalarOffset: text.unicodeScalars.distance(from: text.startIndex, to: index))
                }
            }
            return .error("invalid YAML: \(problem)", at: SourceLocation(file: file, line: point.line, column: point.column))
        default:
            return .error("invalid YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }
}
