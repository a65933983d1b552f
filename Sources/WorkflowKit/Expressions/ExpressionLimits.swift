/// The limits of the expression language inside `${…}`.
///
/// An expression within them parses, type-checks and evaluates; one beyond them is a located
/// error when the workflow is loaded, never a crash. Parsing, type checking and evaluation
/// recurse once per level, so the depth limit is what keeps them within any thread's stack.
///
/// ```swift
/// let chain = "${" + Array(repeating: "1", count: ExpressionLimits.maximumDepth + 1).joined(separator: " + ") + "}"
/// // Template(parsing: chain, at: …) throws "… the expression is nested too deeply: more than 64 levels"
/// ```
enum ExpressionLimits {
    /// The most levels an expression nests, counted along its deepest path as written: each
    /// operator of a chain (`a + b + c` has three levels), each `.name`, `[index]` and call, each
    /// pair of parentheses, brackets or braces, each branch of `?:` and each prefix operator.
    static let maximumDepth = 64

    /// The most bytes (UTF-8) of one `${…}`, its braces included: 64 KiB.
    static let maximumLength = 65_536

    /// What to do about an expression beyond either limit.
    static let help = "split it into 'set:' steps that each compute a part, and combine their variables"
}

extension ExpressionSyntaxError {
    /// The error for an expression beyond ``ExpressionLimits/maximumDepth``, at the construct
    /// that goes past it.
    static func nestedTooDeeply(at offset: Int) -> ExpressionSyntaxError {
        ExpressionSyntaxError(
            message: "the expression is nested too deeply: more than \(ExpressionLimits.maximumDepth) levels", offset: offset,
            help: ExpressionLimits.help)
    }
}
