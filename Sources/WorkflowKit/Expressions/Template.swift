/// Text split into literal parts and `${…}` expressions.
///
/// Parsing any scalar gives a template: plain text gives one ``Segment/text(_:)`` segment,
/// `${x}` alone gives one ``Segment/expression(_:)`` segment, and `Added ${book}` gives
/// both. `$${` stands for a literal `${` and is unescaped in the text segments. In the
/// workflow model, ``ValueNode/template(_:)`` is used only when text and expressions mix.
///
/// ```swift
/// let template = try Template(parsing: "Added ${book} (${book.datePublished})",
///                             at: SourceLocation(file: "add.yaml", line: 9, column: 11))
/// for segment in template.segments {
///     switch segment {
///     case .text(let text): print("text:", text)
///     case .expression(let expression): print("expression at column", expression.location.column)
///     }
/// }
/// ```
public struct Template: Sendable, Hashable {
    /// A piece of a template.
    ///
    /// ```swift
    /// let hasExpressions = template.segments.contains {
    ///     if case .expression = $0 { return true } else { return false }
    /// }
    /// ```
    public enum Segment: Sendable, Hashable {
        /// Literal text, with `$${` already turned into `${`.
        case text(String)
        /// An expression whose value is shown as display text.
        case expression(WorkflowExpression)
    }

    /// The segments in order; neighbouring text is merged into one segment.
    public var segments: [Segment]
    /// Where the template's scalar starts.
    public var location: SourceLocation

    /// The expression when the template is exactly one `${…}` with no text around it.
    ///
    /// ```swift
    /// let keepsType = template.singleExpression != nil
    /// ```
    public var singleExpression: WorkflowExpression? {
        guard segments.count == 1, case .expression(let expression) = segments[0] else { return nil }
        return expression
    }

    /// The text when the template contains no expression at all (`""` for no segments).
    ///
    /// ```swift
    /// if let text = template.literalText { print("plain text:", text) }
    /// ```
    public var literalText: String? {
        var text = ""
        for segment in segments {
            guard case .text(let part) = segment else { return nil }
            text += part
        }
        return text
    }

    /// Parses text that sits on a single line starting at `location`.
    ///
    /// Every problem is collected before throwing, so text with two bad expressions
    /// reports both. Locations of segments are `location` shifted by their offset in
    /// Unicode scalars.
    ///
    /// ```swift
    /// let template = try Template(parsing: "Hello ${input.name}!",
    ///                             at: SourceLocation(file: "a.yaml", line: 3, column: 10))
    /// // the expression is located at a.yaml:3:16
    /// ```
    ///
    /// - Parameters:
    ///   - text: The text to parse.
    ///   - location: Where the text's first character is.
    /// - Throws: ``DiagnosticError`` listing every unterminated, empty or malformed expression.
    public init(parsing text: String, at location: SourceLocation) throws(DiagnosticError) {
        let result = TemplateParser(file: location.file) { offset in
            (location.line, location.column + offset)
        }.parse(text)
        guard result.diagnostics.isEmpty else {
            throw DiagnosticError(result.diagnostics)
        }
        self.init(segments: result.segments, location: location)
    }

    init(segments: [Segment], location: SourceLocation) {
        self.segments = segments
        self.location = location
    }
}
