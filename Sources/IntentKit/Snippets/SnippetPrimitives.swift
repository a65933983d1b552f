import Foundation

/// A line of text, wrapped to the available width.
///
/// ```swift
/// Text("Thank you for your order!").bold()
/// ```
public struct Text: SnippetView {
    /// Emphasis for text.
    public enum Style: Sendable { case secondary }

    let content: String
    var isBold = false
    var isItalic = false
    var isSecondary = false

    /// Text shown as given.
    public init(verbatim content: String) {
        self.content = content
    }

    /// Text shown as given.
    public init(_ content: String) {
        self.content = content
    }

    /// Localized text.
    public init(_ resource: LocalizedStringResource) {
        self.content = resource.description
    }

    /// Shows the text in bold.
    public func bold() -> Text {
        var copy = self
        copy.isBold = true
        return copy
    }

    /// Shows the text in italics.
    public func italic() -> Text {
        var copy = self
        copy.isItalic = true
        return copy
    }

    /// Shows the text dimmed.
    public func foregroundStyle(_ style: Style) -> Text {
        var copy = self
        copy.isSecondary = style == .secondary
        return copy
    }

    public typealias Body = Never

    public func renderLines(in context: SnippetRenderContext) -> [String] {
        TextLayout.wrap(content, width: max(context.width, 1)).map { line in
            guard context.usesStyles else { return line }
            var codes: [String] = []
            if isBold { codes.append("1") }
            if isSecondary { codes.append("2") }
            if isItalic { codes.append("3") }
            return codes.isEmpty ? line : "\u{1B}[\(codes.joined(separator: ";"))m\(line)\u{1B}[0m"
        }
    }
}

/// A label and its value on one line: `Author: Delia Owens`.
public struct LabeledContent: SnippetView {
    let label: String
    let value: String

    /// Creates a labeled value.
    public init(_ label: LocalizedStringResource, value: String) {
        self.label = label.description
        self.value = value
    }

    /// Creates a labeled value of any printable kind.
    public init<Value: IntentValueConvertible>(_ label: LocalizedStringResource, value: Value) {
        self.label = label.description
        self.value = value.intentValue.displayText
    }

    public typealias Body = Never

    public func renderLines(in context: SnippetRenderContext) -> [String] {
        Text("\(label): \(value)").renderLines(in: context)
    }
}

/// Views one above the other.
public struct VStack: SnippetView {
    let spacing: Int
    let content: SnippetGroup

    /// Creates a vertical stack.
    ///
    /// - Parameters:
    ///   - spacing: Blank lines between the views.
    ///   - content: The views.
    public init(spacing: Int = 0, @SnippetViewBuilder content: () -> SnippetGroup) {
        self.spacing = spacing
        self.content = content()
    }

    public typealias Body = Never

    public func renderLines(in context: SnippetRenderContext) -> [String] {
        var lines: [String] = []
        for (index, child) in content.children.enumerated() {
            if index > 0 { lines += Array(repeating: "", count: spacing) }
            lines += child.renderLines(in: context)
        }
        return lines
    }
}

/// Views side by side, each taking an equal share of the width.
public struct HStack: SnippetView {
    let spacing: Int
    let content: SnippetGroup

    /// Creates a horizontal stack.
    ///
    /// - Parameters:
    ///   - spacing: Spaces between the columns.
    ///   - content: The views.
    public init(spacing: Int = 2, @SnippetViewBuilder content: () -> SnippetGroup) {
        self.spacing = spacing
        self.content = content()
    }

    public typealias Body = Never

    public func renderLines(in context: SnippetRenderContext) -> [String] {
        let children = content.children
        guard !children.isEmpty else { return [] }
        let columnWidth = max((context.width - spacing * (children.count - 1)) / children.count, 1)
        var childContext = context
        childContext.width = columnWidth
        let columns = children.map { $0.renderLines(in: childContext) }
        let height = columns.map(\.count).max() ?? 0
        return (0..<height).map { row in
            columns.enumerated().map { index, column in
                let cell = row < column.count ? column[row] : ""
                let isLast = index == columns.count - 1
                return isLast ? cell : TextLayout.pad(cell, to: columnWidth) + String(repeating: " ", count: spacing)
            }.joined()
        }
    }
}

/// A horizontal rule.
public struct Divider: SnippetView {
    public init() {}
    public typealias Body = Never
    public func renderLines(in context: SnippetRenderContext) -> [String] {
        [String(repeating: "─", count: max(context.width, 1))]
    }
}

/// An empty line.
public struct Spacer: SnippetView {
    public init() {}
    public typealias Body = Never
    public func renderLines(in context: SnippetRenderContext) -> [String] { [""] }
}

/// An image, shown by its name in brackets.
public struct Image: SnippetView {
    let name: String

    /// An image from the app's assets.
    public init(_ name: String) {
        self.name = name
    }

    /// A system symbol.
    public init(systemName: String) {
        self.name = systemName
    }

    public typealias Body = Never
    public func renderLines(in context: SnippetRenderContext) -> [String] { ["[\(name)]"] }
}

/// Views inside a frame, with an optional title in its top edge.
public struct Box: SnippetView {
    let title: String?
    let content: SnippetGroup

    /// Creates a framed box.
    ///
    /// - Parameters:
    ///   - title: A title in the top edge.
    ///   - content: The views inside.
    public init(_ title: LocalizedStringResource? = nil, @SnippetViewBuilder content: () -> SnippetGroup) {
        self.title = title?.description
        self.content = content()
    }

    public typealias Body = Never

    public func renderLines(in context: SnippetRenderContext) -> [String] {
        let inner = max(context.width - 4, 1)
        var innerContext = context
        innerContext.width = inner
        let lines = content.renderLines(in: innerContext)
        var top = "┌" + String(repeating: "─", count: inner + 2) + "┐"
        if let title, !title.isEmpty {
            let label = " \(title) "
            let fitted = String(label.prefix(inner))
            top = "┌─" + fitted + String(repeating: "─", count: max(inner + 1 - TextLayout.width(of: fitted), 0)) + "┐"
        }
        let body = lines.map { "│ " + TextLayout.pad($0, to: inner) + " │" }
        return [top] + body + ["└" + String(repeating: "─", count: inner + 2) + "┘"]
    }
}

/// Measures and wraps text by terminal columns (East Asian wide characters take two).
enum TextLayout {
    static func width(of text: String) -> Int {
        var width = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if scalar == "\u{1B}" {
                inEscape = true
                continue
            }
            if inEscape {
                if scalar == "m" { inEscape = false }
                continue
            }
            width += columns(of: scalar)
        }
        return width
    }

    static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if scalar.properties.generalCategory == .nonspacingMark { return 0 }
        let isWide =
            (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
            || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
            || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
            || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1FAFF).contains(value)
            || (0x20000...0x3FFFD).contains(value)
        return isWide ? 2 : 1
    }

    static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(width - self.width(of: text), 0))
    }

    /// Wraps at spaces where possible, and inside long words where not.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var word = String(word)
                var wordWidth = self.width(of: word)
                if lineWidth > 0, lineWidth + 1 + wordWidth > width {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                while wordWidth > width {
                    var head = ""
                    var headWidth = 0
                    var rest = Substring(word)
                    while let character = rest.first, headWidth + columns(of: character) <= width - lineWidth {
                        head.append(character)
                        headWidth += columns(of: character)
                        rest = rest.dropFirst()
                    }
                    if head.isEmpty, lineWidth == 0, let character = rest.first {
                        head.append(character)
                        rest = rest.dropFirst()
                    }
                    lines.append(line + head)
                    line = ""
                    lineWidth = 0
                    word = String(rest)
                    wordWidth = self.width(of: word)
                }
                if lineWidth > 0 {
                    line += " "
                    lineWidth += 1
                }
                line += word
                lineWidth += wordWidth
            }
            lines.append(line)
        }
        return lines
    }

    private static func columns(of character: Character) -> Int {
        width(of: String(character))
    }
}
