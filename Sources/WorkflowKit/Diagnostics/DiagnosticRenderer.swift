/// Renders diagnostics in the compiler style: a header, the source line, a caret under the column.
///
/// ```
/// Workflows/add.yaml:12:5: error: unknown parameter 'athorName' for intent 'Library.AddBook'
///    12 |     athorName: Delia Owens
///       |     ^~~~~~~~~
/// help: did you mean 'authorName'?
/// ```
///
/// The line number is right-aligned in the gutter; the caret sits under the diagnostic's
/// column and tildes continue it over the rest of its length. Tabs before the column are
/// repeated in the marker line so that the caret lines up in a terminal.
///
/// ```swift
/// let renderer = DiagnosticRenderer(sources: [workflow.fileName: workflow.sourceText])
/// print(renderer.render(diagnostics))
/// ```
public struct DiagnosticRenderer: Sendable {
    /// The text of each file, keyed by the file name used in diagnostic locations.
    public var sources: [String: String]

    /// Creates a renderer.
    ///
    /// ```swift
    /// let renderer = DiagnosticRenderer(sources: ["add.yaml": text])
    /// ```
    ///
    /// - Parameters:
    ///   - sources: The text of each file, keyed by file name. A diagnostic whose file is
    ///     missing is rendered without an excerpt.
    public init(sources: [String: String] = [:]) {
        self.sources = sources
    }

    /// Renders one diagnostic: header, excerpt with caret when the source is known, and help.
    ///
    /// ```swift
    /// print(renderer.render(diagnostic))
    /// ```
    ///
    /// - Parameters:
    ///   - diagnostic: The diagnostic to render.
    /// - Returns: The rendered lines joined by newlines, without a trailing newline.
    public func render(_ diagnostic: Diagnostic) -> String {
        let source = sources[diagnostic.location.file].map(SourceText.init)
        return render(diagnostic, source: source)
    }

    /// Renders several diagnostics separated by blank lines.
    ///
    /// ```swift
    /// print(renderer.render(error.diagnostics))
    /// ```
    ///
    /// - Parameters:
    ///   - diagnostics: The diagnostics, in the order to print them.
    /// - Returns: The rendered diagnostics, without a trailing newline.
    public func render(_ diagnostics: [Diagnostic]) -> String {
        var texts: [String: SourceText] = [:]
        var blocks: [String] = []
        for diagnostic in diagnostics {
            let file = diagnostic.location.file
            if texts[file] == nil, let text = sources[file] {
                texts[file] = SourceText(text)
            }
            blocks.append(render(diagnostic, source: texts[file]))
        }
        return blocks.joined(separator: "\n\n")
    }

    /// Lines longer than this are shown as a window around the column.
    private static let maximumExcerptWidth = 160

    private func render(_ diagnostic: Diagnostic, source: SourceText?) -> String {
        let location = diagnostic.location
        var lines = [diagnostic.description]
        if let source, let lineScalars = source.line(location.line) {
            let number = String(location.line)
            let gutterWidth = max(5, number.count + 1)
            let gutter = String(repeating: " ", count: gutterWidth - number.count) + number
            let blankGutter = String(repeating: " ", count: gutterWidth)
            let excerpt = Excerpt(line: lineScalars, column: location.column, maximumWidth: Self.maximumExcerptWidth)
            lines.append(excerpt.text.isEmpty ? "\(gutter) |" : "\(gutter) | \(excerpt.text)")
            lines.append("\(blankGutter) | " + excerpt.marker(length: location.length))
        }
        if let help = diagnostic.help {
            lines.append("help: \(help)")
        }
        return lines.joined(separator: "\n")
    }
}

/// The part of a source line shown under a diagnostic, and the caret line that goes with it.
private struct Excerpt {
    /// The shown text, with `…` where the line was cut.
    let text: String
    private let line: [Unicode.Scalar]
    private let shownRange: Range<Int>
    private let offset: Int

    init(line: [Unicode.Scalar], column: Int, maximumWidth: Int) {
        let offset = max(0, column - 1)
        var range = 0..<line.count
        if line.count > maximumWidth {
            let start = max(0, min(offset - maximumWidth / 3, line.count - maximumWidth))
            range = start..<min(line.count, start + maximumWidth)
        }
        var text = range.lowerBound > 0 ? "…" : ""
        text.unicodeScalars.append(contentsOf: line[range])
        if range.upperBound < line.count {
            text += "…"
        }
        self.text = text
        self.line = line
        self.shownRange = range
        self.offset = offset
    }

    /// Whitespace up to the column (tabs kept so that terminals line up, two cells for a wide
    /// character), a caret, then tildes: ``CaretLine``'s.
    func marker(length: Int?) -> String {
        let remaining = shownRange.upperBound - offset
        let width = max(1, min(length ?? 1, remaining))
        let leading = text(shownRange.lowerBound..<max(shownRange.lowerBound, offset))
        let marked = remaining > 0 ? text(offset..<offset + width) : ""
        return (shownRange.lowerBound > 0 ? " " : "") + CaretLine.draw(leading: leading, marked: marked)
    }

    /// The line's scalars in `range`, a blank for each position past its end.
    private func text(_ range: Range<Int>) -> String {
        var text = ""
        for index in range {
            text.unicodeScalars.append(index < line.count ? line[index] : " ")
        }
        return text
    }
}
