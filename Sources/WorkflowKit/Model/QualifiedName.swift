/// A reference to an app's intent or entity: `App.Name`, or just `Name` where it is unambiguous.
///
/// The text is split at its last dot, so `Library.AddBook` has the app name `Library` and
/// the name `AddBook`. Each dot-separated part is a name made of letters, digits and `_`.
///
/// ```swift
/// if case .perform(let perform) = step.kind {
///     print(perform.intent.appName ?? "any app", perform.intent.name)
/// }
/// ```
public struct QualifiedName: Sendable, Hashable, CustomStringConvertible {
    /// The app part, or `nil` when only the name was written.
    public var appName: String?
    /// The intent or entity name.
    public var name: String
    /// Where the reference is written.
    public var location: SourceLocation

    /// The reference as written, such as `Library.AddBook`.
    ///
    /// ```swift
    /// print("unknown intent '\(perform.intent)'")
    /// ```
    public var description: String {
        appName.map { "\($0).\(name)" } ?? name
    }
}
