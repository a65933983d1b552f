import Foundation

/// An action of your app that people and workflows can run: open a shelf, add a book, buy it.
///
/// ```swift
/// struct OpenShelf: AppIntent {
///     static var title: LocalizedStringResource = "Open Shelf"
///     @Parameter(title: "Shelf") var shelf: Shelf
///     static var parameterSummary: some ParameterSummary { Summary("Open \(\.$shelf)") }
///     static var openAppWhenRun: Bool = true
///
///     @MainActor
///     func perform() async throws -> some IntentResult {
///         Navigator.shared.openShelf(shelf)
///         return .result()
///     }
/// }
/// ```
///
/// The engine creates a fresh intent with `init()` for every run, finds its `@Parameter`
/// wrappers with `Mirror`, assigns their values, asks for missing ones through the
/// ``Interaction``, and calls ``perform()``.
public protocol AppIntent: Sendable {
    /// The intent's name, as lists and summaries show it.
    static var title: LocalizedStringResource { get }
    /// What the intent does.
    static var description: IntentDescription? { get }
    /// Whether running the intent brings the app to the front (records a navigation).
    static var openAppWhenRun: Bool { get }
    /// Whether the intent is listed for people to add to workflows.
    static var isDiscoverable: Bool { get }

    /// The type of ``parameterSummary``.
    associatedtype SummaryContent: ParameterSummary = DefaultParameterSummary<Self>
    /// A sentence describing the intent with its parameters in place.
    @ParameterSummaryBuilder<Self>
    static var parameterSummary: SummaryContent { get }

    /// The type ``perform()`` returns.
    associatedtype PerformResult: IntentResult
    /// Creates an intent with no parameter values.
    init()
    /// Does the work.
    ///
    /// - Returns: A result made with `.result(...)`: a value, a dialog, an intent to open, a snippet.
    /// - Throws: Any error; errors that conform to ``CustomLocalizedStringResourceConvertible``
    ///   are shown localized. Throw `$parameter.requestValue(...)` to ask for a value and run again.
    func perform() async throws -> PerformResult
}

extension AppIntent {
    public static var description: IntentDescription? { nil }
    public static var openAppWhenRun: Bool { false }
    public static var isDiscoverable: Bool { true }

    /// Declares a parameter: `@Parameter(title: "Shelf") var shelf: Shelf`.
    public typealias Parameter<Value: IntentValueConvertible> = IntentParameter<Value>
}

extension AppIntent where SummaryContent == DefaultParameterSummary<Self> {
    public static var parameterSummary: DefaultParameterSummary<Self> { DefaultParameterSummary() }
}

/// A description of an intent, shown in lists and `shortcuts view`.
///
/// ```swift
/// static var description = IntentDescription("Adds a book to your library.", categoryName: "Books")
/// ```
public struct IntentDescription: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The description's text.
    public var text: LocalizedStringResource
    /// A category to group intents under.
    public var categoryName: LocalizedStringResource?
    /// Words that find the intent in searches.
    public var searchKeywords: [LocalizedStringResource]

    /// Creates a description.
    public init(
        _ text: LocalizedStringResource, categoryName: LocalizedStringResource? = nil,
        searchKeywords: [LocalizedStringResource] = []
    ) {
        self.text = text
        self.categoryName = categoryName
        self.searchKeywords = searchKeywords
    }

    public init(stringLiteral value: String) {
        self.init(LocalizedStringResource(value))
    }

    public init(stringInterpolation: LocalizedStringResource.StringInterpolation) {
        self.init(LocalizedStringResource(stringInterpolation: stringInterpolation))
    }
}

/// What an intent says: a full text, and an optional shorter one for small screens.
///
/// ```swift
/// return .result(value: book, dialog: "Added \(book) to Library!")
/// ```
public struct IntentDialog: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The full text.
    public var full: LocalizedStringResource
    /// A shorter text shown beside other content.
    public var supporting: LocalizedStringResource?

    /// Creates a dialog from a full and a supporting text.
    public init(full: LocalizedStringResource, supporting: LocalizedStringResource? = nil) {
        self.full = full
        self.supporting = supporting
    }

    /// Creates a dialog from one text.
    public init(_ text: LocalizedStringResource) {
        self.init(full: text)
    }

    public init(stringLiteral value: String) {
        self.init(full: LocalizedStringResource(value))
    }

    public init(stringInterpolation: LocalizedStringResource.StringInterpolation) {
        self.init(full: LocalizedStringResource(stringInterpolation: stringInterpolation))
    }
}
