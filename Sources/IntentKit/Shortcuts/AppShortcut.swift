import Foundation

/// Declares an app's App Shortcuts: intents with the phrases that run them.
///
/// ```swift
/// struct LibraryAppShortcuts: AppShortcutsProvider {
///     static var appShortcuts: [AppShortcut] {
///         AppShortcut(intent: OpenCurrentlyReading(),
///                     phrases: ["Open Currently Reading in \(.applicationName)"],
///                     systemImageName: "books.vertical.fill")
///     }
/// }
/// ```
///
/// `shortcuts say "Open Currently Reading in Library"` runs the matching shortcut.
public protocol AppShortcutsProvider: Sendable {
    /// The app's shortcuts.
    @AppShortcutsBuilder static var appShortcuts: [AppShortcut] { get }
}

/// Builds the list of ``AppShortcut``s.
@resultBuilder
public enum AppShortcutsBuilder {
    public static func buildExpression(_ shortcut: AppShortcut) -> [AppShortcut] { [shortcut] }
    public static func buildBlock(_ parts: [AppShortcut]...) -> [AppShortcut] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [AppShortcut]?) -> [AppShortcut] { part ?? [] }
    public static func buildArray(_ parts: [[AppShortcut]]) -> [AppShortcut] { parts.flatMap { $0 } }
}

/// An intent and the phrases that run it.
public struct AppShortcut: Sendable {
    /// The intent to run, with any parameter values already set.
    public let intent: any AppIntent
    /// The phrases, as templates.
    public let phrases: [PhraseTemplate]
    /// A short title.
    public let shortTitle: LocalizedStringResource?
    /// A system symbol's name.
    public let systemImageName: String?

    /// Creates a shortcut.
    ///
    /// - Parameters:
    ///   - intent: The intent.
    ///   - phrases: Phrases with `\(.applicationName)` and at most one parameter placeholder.
    ///   - shortTitle: A short title.
    ///   - systemImageName: A symbol's name.
    public init<Intent: AppIntent>(
        intent: Intent, phrases: [AppShortcutPhrase<Intent>], shortTitle: LocalizedStringResource? = nil,
        systemImageName: String? = nil
    ) {
        self.intent = intent
        self.phrases = phrases.map { PhraseTemplate($0, intent: intent) }
        self.shortTitle = shortTitle
        self.systemImageName = systemImageName
    }
}

/// A placeholder in a phrase that is not a parameter.
public enum AppShortcutPhraseToken: Sendable {
    /// The app's name.
    case applicationName
}

/// A phrase of an App Shortcut: words, the app's name and a parameter placeholder.
public struct AppShortcutPhrase<Intent: AppIntent>: ExpressibleByStringInterpolation, Sendable {
    let segments: [PhraseSegment<Intent>]

    public init(stringLiteral value: String) {
        segments = [.text(value)]
    }

    public init(stringInterpolation: StringInterpolation) {
        segments = stringInterpolation.segments
    }

    /// Collects a phrase's parts.
    public struct StringInterpolation: StringInterpolationProtocol {
        var segments: [PhraseSegment<Intent>] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { segments.append(.text(literal)) }
        }

        public mutating func appendInterpolation(_ token: AppShortcutPhraseToken) {
            segments.append(.applicationName)
        }

        public mutating func appendInterpolation<Value: AppEnum>(_ parameter: KeyPath<Intent, IntentParameter<Value>>) {
            segments.append(.parameter(parameter))
        }

        public mutating func appendInterpolation<Value: AppEntity>(_ parameter: KeyPath<Intent, IntentParameter<Value>>) {
            segments.append(.parameter(parameter))
        }
    }
}

enum PhraseSegment<Intent: AppIntent>: @unchecked Sendable {
    case text(String)
    case applicationName
    case parameter(PartialKeyPath<Intent>)
}

/// A phrase with its parameter resolved to a name: `Open ${shelf} in ${applicationName}`.
public struct PhraseTemplate: Sendable, Hashable {
    /// The phrase with `${applicationName}` and `${parameter}` placeholders; also its key in
    /// the app's strings tables.
    public let template: String
    /// The name of the parameter in the phrase, if any.
    public let parameterName: String?

    init<Intent: AppIntent>(_ phrase: AppShortcutPhrase<Intent>, intent: Intent) {
        var template = ""
        var parameterName: String?
        for segment in phrase.segments {
            switch segment {
            case .text(let words): template += words
            case .applicationName: template += "${applicationName}"
            case .parameter(let keyPath):
                let name = IntentReflection.parameterName(for: keyPath, in: Intent.self) ?? "parameter"
                parameterName = name
                template += "${\(name)}"
            }
        }
        self.template = template
        self.parameterName = parameterName
    }
}
