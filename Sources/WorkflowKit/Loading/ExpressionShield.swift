/// Hides the flow indicators inside `${…}` from the YAML parser, and puts them back afterwards.
///
/// In YAML, `{ book: ${b} }` is not valid: inside a flow mapping or sequence the `{`, `}`,
/// `[` and `]` of an expression would end the plain scalar. Before parsing, each of those
/// characters inside an expression is replaced by a private-use character that does not
/// occur in the file; one character stands for one character, so every line and column the
/// parser reports is unchanged. ``restore(_:)`` turns scalars back into what was written.
///
/// The same table is used to rename repeated mapping keys, so that the parser accepts the
/// file and the converter can report each repeat where it occurs.
struct ExpressionShield {
    /// The text handed to the YAML parser.
    private(set) var scalars: [Unicode.Scalar]
    /// Private-use character → the character it replaced.
    private var originals: [Unicode.Scalar: Unicode.Scalar] = [:]
    /// The placeholder used for each shielded flow indicator.
    private var placeholderForIndicator: [Unicode.Scalar: Unicode.Scalar] = [:]
    /// Private-use characters that occur in the file and so cannot serve as placeholders.
    private let usedByFile: Set<Unicode.Scalar>
    private var nextCandidate: UInt32 = 0xE000

    private static let privateUseRange: ClosedRange<UInt32> = 0xE000...0xF8FF

    init(text: String) {
        let scalars = Array(text.unicodeScalars)
        self.scalars = scalars
        self.usedByFile = Set(scalars.filter { Self.privateUseRange.contains($0.value) })
        self.text = text
        if shieldExpressions() {
            rebuildText()
        }
    }

    private mutating func rebuildText() {
        var rebuilt = ""
        rebuilt.unicodeScalars.append(contentsOf: scalars)
        text = rebuilt
    }

    /// The shielded text.
    private(set) var text: String

    /// Puts back the characters replaced in a scalar's value.
    func restore(_ value: String) -> String {
        guard !originals.isEmpty,
            value.unicodeScalars.contains(where: { Self.privateUseRange.contains($0.value) && originals[$0] != nil })
        else {
            return value
        }
        var restored = ""
        restored.unicodeScalars.append(contentsOf: value.unicodeScalars.map { originals[$0] ?? $0 })
        return restored
    }

    /// Replaces the character at each scalar offset by a fresh placeholder, and rebuilds the
    /// text once.
    ///
    /// ```swift
    /// var shield = ExpressionShield(text: "name: a\nname: b\n")
    /// shield.replace(atScalarOffsets: [8])  // 1: the second key no longer reads 'name'
    /// ```
    ///
    /// - Parameter offsets: Scalar offsets into the text, each of a different character.
    /// - Returns: How many offsets, from the first, were replaced: fewer than given when an
    ///   offset is outside the text or no placeholder is left.
    mutating func replace(atScalarOffsets offsets: [Int]) -> Int {
        var replaced = 0
        for offset in offsets {
            guard scalars.indices.contains(offset), let placeholder = makePlaceholder(for: scalars[offset]) else { break }
            scalars[offset] = placeholder
            replaced += 1
        }
        if replaced > 0 {
            rebuildText()
        }
        return replaced
    }

    private mutating func makePlaceholder(for original: Unicode.Scalar) -> Unicode.Scalar? {
        while Self.privateUseRange.contains(nextCandidate) {
            let candidate = Unicode.Scalar(nextCandidate)
            nextCandidate += 1
            if let candidate, !usedByFile.contains(candidate) {
                originals[candidate] = original
                return candidate
            }
        }
        return nil
    }

    private mutating func placeholder(forIndicator indicator: Unicode.Scalar) -> Unicode.Scalar? {
        if let existing = placeholderForIndicator[indicator] {
            return existing
        }
        let made = makePlaceholder(for: indicator)
        placeholderForIndicator[indicator] = made
        return made
    }

    /// Shields the `{` of every `${`, and the `[`, `]` and closing `}` of expressions that
    /// close on the same line with nothing but path characters inside.
    ///
    /// - Returns: Whether anything was shielded.
    private mutating func shieldExpressions() -> Bool {
        var shieldedAny = false
        // Where the expressions of the line being read close, read once per line when needed.
        var lineBraces: (end: Int, braces: ClosingBraces)?
        // The quoted scalars of the line being read, read once per line that has a `${`.
        var lineQuotes: (end: Int, ranges: [Range<Int>])?
        var index = 0
        while index + 1 < scalars.count {
            guard scalars[index] == "$", scalars[index + 1] == "{" else {
                index += 1
                continue
            }
            // Inside a quoted scalar YAML reads every character as text, so nothing needs
            // hiding; and its escapes (`\"`, `''`) are YAML's, not the expression's quotes.
            if lineQuotes.map({ $0.end < index }) ?? true {
                let lineStart = scalars[..<index].lastIndex(of: "\n").map { $0 + 1 } ?? 0
                let lineEnd = scalars[index...].firstIndex(of: "\n") ?? scalars.count
                lineQuotes = (lineEnd, QuotedScalars.ranges(in: scalars, line: lineStart..<lineEnd))
            }
            if let quoted = lineQuotes?.ranges.first(where: { $0.contains(index) }) {
                index = quoted.upperBound
                continue
            }
            if let placeholder = placeholder(forIndicator: "{") {
                scalars[index + 1] = placeholder
                shieldedAny = true
            }
            var end = index + 2
            while end < scalars.count, Self.isPathCharacter(scalars[end]) {
                end += 1
            }
            var shielded = Self.shieldedInsideExpressions
            if end >= scalars.count || scalars[end] != "}" {
                // An expression with operators, text or calls: it ends at the balancing `}` on
                // the same line, and YAML's other indicators inside it are shielded too.
                if lineBraces.map({ $0.end < index }) ?? true {
                    let lineEnd = scalars[(index + 2)...].firstIndex(of: "\n") ?? scalars.count
                    lineBraces = (lineEnd, ClosingBraces(scalars, in: (index + 2)..<lineEnd))
                }
                guard let closing = lineBraces?.braces.closingBrace(after: index + 2) else {
                    index += 2
                    continue
                }
                end = closing
                shielded = Self.shieldedInsideOperations
            }
            for position in (index + 2)...end where shielded.contains(scalars[position]) {
                if let placeholder = placeholder(forIndicator: scalars[position]) {
                    scalars[position] = placeholder
                }
            }
            index = end + 1
        }
        return shieldedAny
    }

    private static let shieldedInsideExpressions: Set<Unicode.Scalar> = ["[", "]", "}"]
    private static let shieldedInsideOperations: Set<Unicode.Scalar> = ["[", "]", "{", "}", ",", ":", "#"]
    private static let pathPunctuation: Set<Unicode.Scalar> = [".", "[", "]", " ", "\t"]

    private static func isPathCharacter(_ scalar: Unicode.Scalar) -> Bool {
        NameSyntax.isNameContinuation(scalar) || pathPunctuation.contains(scalar)
    }
}

/// The quoted scalars (`"…"`, `'…'`) that start on one line of YAML, found without parsing it:
/// a quote opens a scalar where a value can start (after the indentation, `- `, `? `, `: `, or
/// in a flow collection after `[`, `{` or `,`); in double quotes `\` escapes the next character,
/// in single quotes `''` stands for one quote. A scalar that does not close on the line runs
/// to its end; a ` #` outside quotes ends the line's reading.
///
/// ```swift
/// let line = Array(#"with: { separator: "${upper(\"x\")}" }"#.unicodeScalars)
/// QuotedScalars.ranges(in: line, line: 0..<line.count)   // [19..<36]
/// ```
enum QuotedScalars {
    static func ranges(in scalars: [Unicode.Scalar], line: Range<Int>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var canStartValue = true
        var offset = line.lowerBound
        while offset < line.upperBound {
            let scalar = scalars[offset]
            let next = offset + 1 < line.upperBound ? scalars[offset + 1] : nil
            let followedBySpace = next.map { $0 == " " || $0 == "\t" } ?? true
            switch scalar {
            case " ", "\t":
                break
            case "#" where offset == line.lowerBound || scalars[offset - 1] == " " || scalars[offset - 1] == "\t":
                return ranges
            case "\"", "'":
                guard canStartValue else { break }
                let end = closingQuote(scalar, in: scalars, after: offset, before: line.upperBound)
                ranges.append(offset..<min(end + 1, line.upperBound))
                offset = end + 1
                canStartValue = false
                continue
            case "-", "?", ":":
                canStartValue = followedBySpace
            case "[", ",":
                canStartValue = true
            case "{":
                canStartValue = offset == line.lowerBound || scalars[offset - 1] != "$"
            default:
                canStartValue = false
            }
            offset += 1
        }
        return ranges
    }

    /// The offset of the quote that closes the scalar opened at `start`, or the line's end.
    private static func closingQuote(_ quote: Unicode.Scalar, in scalars: [Unicode.Scalar], after start: Int, before end: Int) -> Int {
        var offset = start + 1
        while offset < end {
            let scalar = scalars[offset]
            if quote == "\"" && scalar == "\\" {
                offset += 2
                continue
            }
            if scalar == quote {
                // `''` inside single quotes is a quote, not the end.
                guard quote == "'", offset + 1 < end, scalars[offset + 1] == "'" else { return offset }
                offset += 2
                continue
            }
            offset += 1
        }
        return end
    }
}
