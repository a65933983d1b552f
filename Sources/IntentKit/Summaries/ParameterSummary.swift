import Foundation

/// A sentence that describes an intent with its parameters in place: "Open **Currently Reading**".
///
/// ```swift
/// static var parameterSummary: some ParameterSummary {
///     When(\.$count, .greaterThan, 1) {
///         Summary("Buy \(\.$count) copies of \(\.$book)")
///     } otherwise: {
///         Summary("Buy \(\.$book)") { \.$giftWrap }
///     }
/// }
/// ```
///
/// Build it from ``Summary``, ``When`` and ``Switch``; render it with
/// ``ParameterSummaryRenderer``.
public protocol ParameterSummary: Sendable {
    /// The intent the summary describes.
    associatedtype Intent: AppIntent
    /// The summary's structure, for the renderer.
    @_documentation(visibility: internal)
    var summaryNode: SummaryNode<Intent> { get }
}

/// The structure of a parameter summary.
@_documentation(visibility: internal)
public indirect enum SummaryNode<Intent: AppIntent>: @unchecked Sendable {
    case empty
    case sentence(segments: [SummarySegment<Intent>], more: [PartialKeyPath<Intent>])
    case condition(
        parameter: PartialKeyPath<Intent>, test: @Sendable (IntentValue?) -> Bool,
        description: String, then: SummaryNode<Intent>, otherwise: SummaryNode<Intent>)
    case choice(
        parameter: PartialKeyPath<Intent>, cases: [(value: IntentValue, node: SummaryNode<Intent>)],
        otherwise: SummaryNode<Intent>)
}

/// A piece of a summary sentence: text, or a parameter's value.
@_documentation(visibility: internal)
public enum SummarySegment<Intent: AppIntent>: @unchecked Sendable {
    case text(String)
    case parameter(PartialKeyPath<Intent>)
}

/// A sentence with parameters interpolated, and an optional list of further parameters.
///
/// ```swift
/// Summary("Open \(\.$shelf)")
/// Summary("Add \(\.$title)") { \.$authorName; \.$recommendedBy }
/// ```
public struct Summary<Intent: AppIntent>: ParameterSummary {
    public let summaryNode: SummaryNode<Intent>

    /// A sentence.
    public init(_ sentence: ParameterSummaryString<Intent>) {
        summaryNode = .sentence(segments: sentence.segments, more: [])
    }

    /// A sentence, and parameters shown after it.
    public init(
        _ sentence: ParameterSummaryString<Intent>,
        @ParameterSummaryListBuilder<Intent> _ more: () -> [PartialKeyPath<Intent>]
    ) {
        summaryNode = .sentence(segments: sentence.segments, more: more())
    }
}

/// The text of a ``Summary``: literal words and `\(\.$parameter)` interpolations.
public struct ParameterSummaryString<Intent: AppIntent>: ExpressibleByStringInterpolation, Sendable {
    let segments: [SummarySegment<Intent>]

    public init(stringLiteral value: String) {
        segments = [.text(value)]
    }

    public init(stringInterpolation: StringInterpolation) {
        segments = stringInterpolation.segments
    }

    /// Collects the words and parameters of a summary sentence.
    public struct StringInterpolation: StringInterpolationProtocol {
        var segments: [SummarySegment<Intent>] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { segments.append(.text(literal)) }
        }

        public mutating func appendInterpolation<Value>(_ parameter: KeyPath<Intent, IntentParameter<Value>>) {
            segments.append(.parameter(parameter))
        }
    }
}

/// The summary of an intent that declares none: its title, then every parameter.
public struct DefaultParameterSummary<Intent: AppIntent>: ParameterSummary {
    public init() {}
    public var summaryNode: SummaryNode<Intent> { .empty }
}

/// Builds an intent's `parameterSummary` from one ``Summary``, ``When`` or ``Switch``.
@resultBuilder
public enum ParameterSummaryBuilder<Intent: AppIntent> {
    public static func buildExpression<Content: ParameterSummary>(_ content: Content) -> Content
    where Content.Intent == Intent {
        content
    }

    public static func buildBlock<Content: ParameterSummary>(_ content: Content) -> Content
    where Content.Intent == Intent {
        content
    }
}

/// Builds the list of extra parameters after a summary sentence: `{ \.$author; \.$note }`.
@resultBuilder
public enum ParameterSummaryListBuilder<Intent: AppIntent> {
    public static func buildExpression<Value>(_ parameter: KeyPath<Intent, IntentParameter<Value>>) -> [PartialKeyPath<Intent>] {
        [parameter]
    }

    public static func buildBlock(_ parts: [PartialKeyPath<Intent>]...) -> [PartialKeyPath<Intent>] {
        parts.flatMap { $0 }
    }
}
