import Foundation

/// The locale and strings tables that ``LocalizedStringResource`` values resolve in.
///
/// The engine sets it for the duration of a run (`--locale ja` on the command line);
/// code reads it through ``current``.
///
/// ```swift
/// Localization.$current.withValue(Localization(locale: "ja", strings: app.strings)) {
///     print(AddBook.title)   // 本を追加
/// }
/// ```
public struct Localization: Sendable {
    /// A locale identifier such as `en` or `ja`.
    public var locale: String
    /// The strings tables.
    public var strings: StringsCatalog

    /// Creates a localization.
    public init(locale: String = "en", strings: StringsCatalog = StringsCatalog()) {
        self.locale = locale
        self.strings = strings
    }

    /// The localization in effect for the current task.
    @TaskLocal public static var current = Localization()
}
