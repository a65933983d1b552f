import Foundation

/// How ``When`` compares a parameter's value.
public enum ParameterSummaryComparison: Sendable {
    case equalTo, notEqualTo, lessThan, lessThanOrEqualTo, greaterThan, greaterThanOrEqualTo

    /// The comparator it stands for.
    var kind: ComparatorKind {
        switch self {
        case .equalTo: .equalTo
        case .notEqualTo: .notEqualTo
        case .lessThan: .lessThan
        case .lessThanOrEqualTo: .lessThanOrEqualTo
        case .greaterThan: .greaterThan
        case .greaterThanOrEqualTo: .greaterThanOrEqualTo
        }
    }

    var name: String { kind.rawValue }
}

/// How ``When`` tests whether a parameter has a value.
public enum ParameterSummaryPresence: Sendable {
    case hasAnyValue, hasNoValue
}

/// One summary or another, by a parameter's value.
///
/// ```swift
/// When(\.$includeAuthor, .equalTo, true) {
///     Summary("Find \(\.$title) by \(\.$author)")
/// } otherwise: {
///     Summary("Find \(\.$title)")
/// }
/// ```
public struct When<Intent: AppIntent>: ParameterSummary {
    public let summaryNode: SummaryNode<Intent>

    /// Compares a parameter with a value.
    public init<Value: IntentValueConvertible, Then: ParameterSummary, Otherwise: ParameterSummary>(
        _ parameter: KeyPath<Intent, IntentParameter<Value>>, _ comparison: ParameterSummaryComparison, _ value: Value,
        @ParameterSummaryBuilder<Intent> _ then: () -> Then,
        @ParameterSummaryBuilder<Intent> otherwise: () -> Otherwise
    ) where Then.Intent == Intent, Otherwise.Intent == Intent {
        let expected = value.intentValue
        summaryNode = .condition(
            parameter: parameter,
            test: { actual in Self.test(actual, comparison, expected) },
            description: "\(comparison.name) \(expected.displayText)",
            then: then().summaryNode, otherwise: otherwise().summaryNode)
    }

    /// Compares a parameter with a value, with nothing shown otherwise.
    public init<Value: IntentValueConvertible, Then: ParameterSummary>(
        _ parameter: KeyPath<Intent, IntentParameter<Value>>, _ comparison: ParameterSummaryComparison, _ value: Value,
        @ParameterSummaryBuilder<Intent> _ then: () -> Then
    ) where Then.Intent == Intent {
        self.init(parameter, comparison, value, then, otherwise: { DefaultParameterSummary<Intent>() })
    }

    /// Tests whether a parameter has a value.
    public init<Value: IntentValueConvertible, Then: ParameterSummary, Otherwise: ParameterSummary>(
        _ parameter: KeyPath<Intent, IntentParameter<Value>>, _ presence: ParameterSummaryPresence,
        @ParameterSummaryBuilder<Intent> _ then: () -> Then,
        @ParameterSummaryBuilder<Intent> otherwise: () -> Otherwise
    ) where Then.Intent == Intent, Otherwise.Intent == Intent {
        summaryNode = .condition(
            parameter: parameter,
            test: { actual in
                let present = actual.map { !$0.isNull } ?? false
                return presence == .hasAnyValue ? present : !present
            },
            description: presence == .hasAnyValue ? "hasAnyValue" : "hasNoValue",
            then: then().summaryNode, otherwise: otherwise().summaryNode)
    }

    private static func test(_ actual: IntentValue?, _ comparison: ParameterSummaryComparison, _ expected: IntentValue) -> Bool {
        comparison.kind.evaluate(actual ?? .null, [expected])
    }
}

/// One summary per value of a parameter.
///
/// ```swift
/// Switch(\.$shelf) {
///     Case(.read) { Summary("Show what I have read") }
///     DefaultCase { Summary("Open \(\.$shelf)") }
/// }
/// ```
public struct Switch<Intent: AppIntent>: ParameterSummary {
    public let summaryNode: SummaryNode<Intent>

    /// Chooses among cases by a parameter's value.
    public init<Value: IntentValueConvertible>(
        _ parameter: KeyPath<Intent, IntentParameter<Value>>,
        @SwitchCaseBuilder<Intent, Value> _ cases: () -> [SwitchBranch<Intent>]
    ) {
        let branches = cases()
        summaryNode = .choice(
            parameter: parameter,
            cases: branches.compactMap { branch in branch.value.map { ($0, branch.node) } },
            otherwise: branches.last { $0.value == nil }?.node ?? .empty)
    }
}

/// A case of a ``Switch``: the summary shown when the parameter has this value.
public struct Case<Intent: AppIntent, Value: IntentValueConvertible> {
    let branch: SwitchBranch<Intent>

    /// Creates a case.
    public init<Content: ParameterSummary>(_ value: Value, @ParameterSummaryBuilder<Intent> _ content: () -> Content)
    where Content.Intent == Intent {
        branch = SwitchBranch(value: value.intentValue, node: content().summaryNode)
    }
}

/// The case of a ``Switch`` used when no other matches.
public struct DefaultCase<Intent: AppIntent> {
    let branch: SwitchBranch<Intent>

    /// Creates the default case.
    public init<Content: ParameterSummary>(@ParameterSummaryBuilder<Intent> _ content: () -> Content)
    where Content.Intent == Intent {
        branch = SwitchBranch(value: nil, node: content().summaryNode)
    }
}

/// A case of a switch, after building.
@_documentation(visibility: internal)
public struct SwitchBranch<Intent: AppIntent> {
    let value: IntentValue?
    let node: SummaryNode<Intent>
}

/// Builds the cases of a ``Switch``.
@resultBuilder
public enum SwitchCaseBuilder<Intent: AppIntent, Value: IntentValueConvertible> {
    public static func buildExpression(_ branch: Case<Intent, Value>) -> [SwitchBranch<Intent>] { [branch.branch] }
    public static func buildExpression(_ branch: DefaultCase<Intent>) -> [SwitchBranch<Intent>] { [branch.branch] }
    public static func buildBlock(_ parts: [SwitchBranch<Intent>]...) -> [SwitchBranch<Intent>] { parts.flatMap { $0 } }
}
