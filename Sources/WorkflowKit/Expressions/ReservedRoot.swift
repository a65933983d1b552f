/// The roots of expressions that read from outside the workflow, which no input, step id or
/// variable may be named after.
///
/// - `${env.NAME}` is the environment variable `NAME` of the process that runs the workflow,
///   as text. A variable that is not set fails the run, naming it (with a close name that is
///   set), rather than reading as empty text.
/// - `${secrets.NAME}` is the secret `NAME` of the ``SecretStore``, as text; its value is
///   masked as `***` in everything the run writes (``SecretMask``).
///
/// ```swift
/// if let root = ReservedRoot(rawValue: expression.variable.value) { print("reads \(root.what)") }
/// ```
enum ReservedRoot: String, CaseIterable, Sendable {
    /// `${env.NAME}`: an environment variable.
    case env
    /// `${secrets.NAME}`: a stored secret.
    case secrets

    /// What the root reads, in words: `an environment variable`, `a secret`.
    var what: String {
        switch self {
        case .env: "an environment variable"
        case .secrets: "a secret"
        }
    }

    /// The expression it is written as, with a placeholder name: `${env.NAME}`.
    var example: String { "${\(rawValue).NAME}" }
}
