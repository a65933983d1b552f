/// `comment: text` — does nothing when run; explains the workflow to its readers.
///
/// Expressions are not parsed in comments.
///
/// ```swift
/// if case .comment(let comment) = step.kind { print("//", comment.text) }
/// ```
public struct CommentStep: Sendable, Hashable {
    /// The comment's text.
    public var text: String
}
