/// `perform: App.Intent` — runs an app intent with parameters.
///
/// ```yaml
/// - id: book
///   perform: Library.AddBook
///   with: { title: ${input.title}, authorName: Delia Owens }
///   openWhenRun: false
/// ```
///
/// ```swift
/// if case .perform(let perform) = step.kind, !perform.opensWhenRun {
///     print("will not open the result of \(perform.intent)")
/// }
/// ```
public struct PerformStep: Sendable, Hashable {
    /// The intent, `App.Intent` or just `Intent`.
    public var intent: QualifiedName
    /// The `with:` parameters by Swift property name, in the order written.
    public var parameters: [NamedValue]
    /// `openWhenRun:` as written, or `nil` when absent.
    public var openWhenRun: Located<Bool>?

    /// Whether the open-intent an intent returns should be run: `openWhenRun`, `true` by default.
    ///
    /// ```swift
    /// if perform.opensWhenRun { try await open(result) }
    /// ```
    public var opensWhenRun: Bool {
        openWhenRun?.value ?? true
    }
}
