import Foundation

/// What ``AppIntent/perform()`` returns, made with `.result(...)`.
///
/// ```swift
/// func perform() async throws -> some IntentResult & ReturnsValue<BookEntity> & ProvidesDialog {
///     return .result(value: book, dialog: "Added \(book) to Library!")
/// }
/// ```
///
/// Combine `value:`, `opensIntent:` (or `openIntent:`), `dialog:` and a trailing snippet
/// closure in any combination; the protocols ``ReturnsValue``, ``OpensIntent``,
/// ``ProvidesDialog`` and ``ShowsSnippetView`` state what a result carries.
public protocol IntentResult: Sendable {
    /// What the result carries, for the engine.
    @_documentation(visibility: internal)
    var resultParts: IntentResultParts { get }
    /// What results of this type carry, known without running the intent.
    static var resultShape: IntentResultShape { get }
}

extension IntentResult {
    public static var resultShape: IntentResultShape { IntentResultShape() }
}

/// What an intent's results carry, read from its `perform()` return type.
public struct IntentResultShape: Sendable, Hashable {
    /// The type of the returned value, if the intent returns one.
    public var valueType: IntentValueType?
    /// The type name of the intent the result opens, if any.
    public var opensIntent: String?
    /// Whether the result has a dialog.
    public var providesDialog = false
    /// Whether the result has a snippet.
    public var showsSnippet = false

    /// The result type as Swift would write it: `ReturnsValue<BookEntity> & OpensIntent`.
    public var description: String {
        var parts: [String] = []
        if let valueType { parts.append("ReturnsValue<\(valueType)>") }
        if opensIntent != nil { parts.append("OpensIntent") }
        if providesDialog { parts.append("ProvidesDialog") }
        if showsSnippet { parts.append("ShowsSnippetView") }
        return parts.isEmpty ? "IntentResult" : parts.joined(separator: " & ")
    }
}

/// A result that returns a value to the next step.
public protocol ReturnsValue<Value>: IntentResult {
    /// The returned value's type.
    associatedtype Value: IntentValueConvertible
}

/// A result that opens another intent after it ("Open When Run").
public protocol OpensIntent: IntentResult {}

/// A result that says something.
public protocol ProvidesDialog: IntentResult {}

/// A result that shows a snippet view.
public protocol ShowsSnippetView: IntentResult {}

/// The parts of a result, as the engine reads them.
public struct IntentResultParts: Sendable {
    /// The returned value.
    public var value: IntentValue?
    /// The dialog.
    public var dialog: IntentDialog?
    /// The intent to open after this one.
    public var opensIntent: (any AppIntent)?
    /// The snippet.
    public var snippet: (any SnippetView)?
}

/// Marks a result without a snippet.
@_documentation(visibility: internal)
public enum _NoSnippet: Sendable {}

/// The result type every `.result(...)` returns; its generic arguments record what it carries.
@_documentation(visibility: internal)
public struct IntentResultContainer<Value: Sendable, OpenedIntent: Sendable, Content: Sendable, Dialog: Sendable>: IntentResult {
    public let resultParts: IntentResultParts

    init(
        value: IntentValue? = nil, opensIntent: (any AppIntent)? = nil, dialog: IntentDialog? = nil,
        snippet: (any SnippetView)? = nil
    ) {
        resultParts = IntentResultParts(value: value, dialog: dialog, opensIntent: opensIntent, snippet: snippet)
    }

    public static var resultShape: IntentResultShape {
        IntentResultShape(
            valueType: (Value.self as? any IntentValueConvertible.Type)?.intentValueType,
            opensIntent: OpenedIntent.self == Never.self ? nil : String(describing: OpenedIntent.self),
            providesDialog: Dialog.self == IntentDialog.self,
            showsSnippet: Content.self is any SnippetView.Type)
    }
}

extension IntentResultContainer: ReturnsValue where Value: IntentValueConvertible {}
extension IntentResultContainer: OpensIntent where OpenedIntent: AppIntent {}
extension IntentResultContainer: ProvidesDialog where Dialog == IntentDialog {}
extension IntentResultContainer: ShowsSnippetView where Content: SnippetView {}

extension AppIntent {
    /// What this intent's results carry, read from its `perform()` return type.
    public static var resultShape: IntentResultShape { PerformResult.resultShape }
}
