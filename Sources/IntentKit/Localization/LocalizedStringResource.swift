import Foundation

/// A string that is looked up in the app's `.strings` tables for the locale it is shown in.
///
/// The key of an interpolated literal is the literal with `%@` in place of each text
/// interpolation (`%lld` for integers, `%lf` for doubles), as in Apple's string catalogs:
///
/// ```swift
/// let dialog: LocalizedStringResource = "Added \(book) to Library!"
/// // key "Added %@ to Library!"; ja.lproj/Localizable.strings may hold
/// // "Added %@ to Library!" = "%@をライブラリに追加しました！";
/// print(dialog.resolved(in: Localization(locale: "ja", strings: catalog)))
/// ```
public struct LocalizedStringResource: Sendable, Hashable, ExpressibleByStringInterpolation,
    CustomStringConvertible
{
    /// The key looked up in the strings tables.
    public let key: String
    /// The text used when no table holds the key (the key itself when `nil`).
    public let defaultValue: String?
    /// The table to look in; every table of the locale when `nil`.
    public let table: String?
    let arguments: [LocalizedArgument]

    /// Creates a resource for a key.
    ///
    /// - Parameters:
    ///   - key: The key in the strings tables.
    ///   - defaultValue: The text when no table has the key.
    ///   - table: The table's name (`Localizable` for `Localizable.strings`).
    public init(_ key: String, defaultValue: String? = nil, table: String? = nil) {
        self.key = key
        self.defaultValue = defaultValue
        self.table = table
        self.arguments = []
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(stringInterpolation: StringInterpolation) {
        key = stringInterpolation.key
        defaultValue = nil
        table = nil
        arguments = stringInterpolation.arguments
    }

    /// The text in the locale of the current ``Localization`` (English when there is none).
    public var description: String { resolved(in: Localization.current) }

    /// The text in a given localization, with the interpolated arguments formatted into it.
    ///
    /// - Parameter localization: The locale and strings tables to use.
    /// - Returns: The localized text.
    public func resolved(in localization: Localization) -> String {
        let format =
            localization.strings.lookUp(key, table: table, locale: localization.locale)
            ?? defaultValue ?? key
        guard !arguments.isEmpty || format.contains("%") else { return format }
        let texts = arguments.map { $0.text(in: localization) }
        return StringFormat.format(format, arguments: texts)
    }

    /// Builds a key and its arguments from an interpolated literal.
    public struct StringInterpolation: StringInterpolationProtocol {
        var key = ""
        var arguments: [LocalizedArgument] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            key.reserveCapacity(literalCapacity + interpolationCount * 2)
        }

        public mutating func appendLiteral(_ literal: String) {
            key += literal.contains("%") ? literal.replacingOccurrences(of: "%", with: "%%") : literal
        }

        public mutating func appendInterpolation(_ value: String) {
            key += "%@"
            arguments.append(.text(value))
        }

        public mutating func appendInterpolation(_ value: Int) {
            key += "%lld"
            arguments.append(.integer(value))
        }

        public mutating func appendInterpolation(_ value: Double) {
            key += "%lf"
            arguments.append(.number(value))
        }

        public mutating func appendInterpolation(_ value: LocalizedStringResource) {
            key += "%@"
            arguments.append(.resource(value))
        }

        public mutating func appendInterpolation<Entity: AppEntity>(_ entity: Entity) {
            key += "%@"
            arguments.append(.resource(entity.displayRepresentation.title))
        }

        public mutating func appendInterpolation<Enumeration: AppEnum>(_ value: Enumeration) {
            key += "%@"
            arguments.append(.resource(value.localizedTitle))
        }

        public mutating func appendInterpolation(_ value: Date) {
            key += "%@"
            arguments.append(.text(DateText.format(value)))
        }

        public mutating func appendInterpolation<Value>(_ value: Value) {
            key += "%@"
            arguments.append(.text(String(describing: value)))
        }
    }
}

/// An argument interpolated into a ``LocalizedStringResource``.
indirect enum LocalizedArgument: Sendable, Hashable {
    case text(String)
    case integer(Int)
    case number(Double)
    case resource(LocalizedStringResource)

    func text(in localization: Localization) -> String {
        switch self {
        case .text(let text): text
        case .integer(let number): String(number)
        case .number(let number): IntentValue.double(number).displayText
        case .resource(let resource): resource.resolved(in: localization)
        }
    }
}

/// Errors that carry a localized message, shown in the user's locale when an intent throws them.
///
/// ```swift
/// enum Error: Swift.Error, CustomLocalizedStringResourceConvertible {
///     case notFound
///     var localizedStringResource: LocalizedStringResource { "Book Not Found" }
/// }
/// ```
public protocol CustomLocalizedStringResourceConvertible {
    /// The message.
    var localizedStringResource: LocalizedStringResource { get }
}
