import Foundation

/// A small view shown with an intent's result, drawn as text in a terminal.
///
/// Compose the primitives ``Text``, ``VStack``, ``HStack``, ``LabeledContent``, ``Divider``,
/// ``Spacer``, ``Image`` and ``Box`` in a `body`, as in SwiftUI:
///
/// ```swift
/// struct CoverView: SnippetView {
///     var book: BookEntity
///     var body: some SnippetView {
///         Box {
///             Text(book.title).bold()
///             LabeledContent("Author", value: book.author)
///         }
///     }
/// }
/// ```
public protocol SnippetView: Sendable {
    /// The view's content type.
    associatedtype Body: SnippetView
    /// The view's content.
    @SnippetViewBuilder var body: Body { get }
    /// Draws the view as lines of text.
    @_documentation(visibility: internal)
    func renderLines(in context: SnippetRenderContext) -> [String]
}

extension SnippetView {
    public func renderLines(in context: SnippetRenderContext) -> [String] {
        body.renderLines(in: context)
    }
}

/// The body type of primitive views, which draw themselves.
extension Never: SnippetView {
    public typealias Body = Never
}

extension SnippetView where Body == Never {
    /// Primitive views have no body: they draw themselves in ``renderLines(in:)``.
    public var body: Never { fatalError("\(Self.self) draws itself and has no body") }
}

/// How snippets are drawn: the available width and whether ANSI styles are used.
public struct SnippetRenderContext: Sendable {
    /// The width in columns.
    public var width: Int
    /// Whether bold, italic and dim text use ANSI escape codes.
    public var usesStyles: Bool

    public init(width: Int = 60, usesStyles: Bool = false) {
        self.width = width
        self.usesStyles = usesStyles
    }
}

/// Draws snippet views as text.
///
/// ```swift
/// print(SnippetRenderer.render(CoverView(book: book)))
/// ```
public enum SnippetRenderer {
    /// Draws a view.
    ///
    /// - Parameters:
    ///   - view: The view.
    ///   - context: Width and styling.
    /// - Returns: The lines joined with newlines, trailing spaces removed.
    public static func render(_ view: any SnippetView, in context: SnippetRenderContext = SnippetRenderContext()) -> String {
        view.renderLines(in: context)
            .map { line in String(line.reversed().drop(while: { $0 == " " }).reversed()) }
            .joined(separator: "\n")
    }
}

/// Builds snippet content from a list of views, `if`, `if`/`else` and `for` loops.
///
/// ```swift
/// VStack {
///     Text("Order")
///     if order.count > 1 { Text("\(order.count) copies") }
///     for line in lines { Text(line) }
/// }
/// ```
@resultBuilder
public enum SnippetViewBuilder {
    public static func buildExpression(_ view: some SnippetView) -> [any SnippetView] { [view] }
    public static func buildBlock(_ parts: [any SnippetView]...) -> [any SnippetView] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any SnippetView]?) -> [any SnippetView] { part ?? [] }
    public static func buildEither(first part: [any SnippetView]) -> [any SnippetView] { part }
    public static func buildEither(second part: [any SnippetView]) -> [any SnippetView] { part }
    public static func buildArray(_ parts: [[any SnippetView]]) -> [any SnippetView] { parts.flatMap { $0 } }
    public static func buildFinalResult(_ parts: [any SnippetView]) -> SnippetGroup { SnippetGroup(parts) }
}

/// Views stacked one above the other, as a builder produces them.
public struct SnippetGroup: SnippetView {
    let children: [any SnippetView]

    init(_ children: [any SnippetView]) {
        self.children = children
    }

    public typealias Body = Never

    public func renderLines(in context: SnippetRenderContext) -> [String] {
        children.flatMap { $0.renderLines(in: context) }
    }
}
