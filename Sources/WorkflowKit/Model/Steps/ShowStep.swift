/// `show: value` — displays a value to the user; its output is the value.
///
/// ```yaml
/// - show: "Added ${book} (${book.datePublished})"
/// ```
///
/// ```swift
/// if case .show(let show) = step.kind, case .template(let template) = show.value {
///     print(template.segments.count)
/// }
/// ```
public struct ShowStep: Sendable, Hashable {
    /// What to show.
    public var value: ValueNode
}
