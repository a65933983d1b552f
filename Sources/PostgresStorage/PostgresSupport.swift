/// Whether this build of Shortcuts can keep its state in PostgreSQL.
///
/// PostgreSQL support is the package trait `PostgreSQL`, off by default so that a first build
/// stays quick: `swift build --traits PostgreSQL` includes it.
///
/// ```swift
/// guard PostgresSupport.isBuiltIn else { throw CommandLineError("rebuild with --traits PostgreSQL") }
/// ```
public enum PostgresSupport {
    /// `true` when built with the `PostgreSQL` trait.
    public static var isBuiltIn: Bool {
        #if PostgreSQL
            true
        #else
            false
        #endif
    }

    /// How to get a build with PostgreSQL support, for messages.
    public static let rebuildHint = "build shortcuts with PostgreSQL support: swift build --traits PostgreSQL (with libpq-dev installed)"
}
