/// A position in a workflow file: file name, 1-based line and column, and an optional length.
///
/// Columns count Unicode scalars, the way YAML parsers do, so a tab is one column.
/// The length, when known, counts columns on the same line and is what a rendered
/// diagnostic underlines.
///
/// ```swift
/// let location = SourceLocation(file: "Workflows/add.yaml", line: 12, column: 5, length: 9)
/// print(location) // Workflows/add.yaml:12:5
/// ```
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file name as it should appear in messages, such as `Workflows/add.yaml`.
    public var file: String
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, counted in Unicode scalars.
    public var column: Int
    /// The number of columns the located text spans on its line, if known.
    public var length: Int?

    /// Creates a location.
    ///
    /// ```swift
    /// let start = SourceLocation(file: "add.yaml", line: 1, column: 1)
    /// ```
    ///
    /// - Parameters:
    ///   - file: The file name shown in messages.
    ///   - line: The 1-based line number.
    ///   - column: The 1-based column, counted in Unicode scalars.
    ///   - length: The number of columns spanned on the line, if known.
    public init(file: String, line: Int, column: Int, length: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.length = length
    }

    /// The location as `file:line:column`.
    ///
    /// ```swift
    /// SourceLocation(file: "a.yaml", line: 3, column: 7).description // "a.yaml:3:7"
    /// ```
    public var description: String {
        "\(file):\(line):\(column)"
    }

    /// Orders locations by file name, then line, then column.
    ///
    /// ```swift
    /// let sorted = diagnostics.map(\.location).sorted()
    /// ```
    ///
    /// - Parameters:
    ///   - lhs: A location.
    ///   - rhs: Another location.
    /// - Returns: Whether `lhs` comes before `rhs`.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
