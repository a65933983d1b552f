@_exported import ScratchPostgres
import ShortcutsTestSupport
import Testing

extension ChangeSource {
    /// A commit on this server (its write-ahead log changed).
    public static func commits(on server: PostgresServer) -> ChangeSource { .folder(server.writeAheadLog) }
}

extension PostgresServer {
    /// Whether PostgreSQL tests should run: the server binaries are installed and this build
    /// has the `PostgreSQL` trait, or skipping is refused (`SHORTCUTS_TESTS_REQUIRE_ALL=1`,
    /// then a missing piece makes the test fail).
    public static var isAvailable: Bool {
        missingPiece == nil || SystemComponents.isRequired
    }

    /// Why PostgreSQL tests are skipped, for `.enabled(if: PostgresServer.isAvailable, PostgresServer.skipReason)`.
    public static var skipReason: Comment {
        Comment(rawValue: missingPiece ?? "PostgreSQL is available")
    }
}
