import Foundation

/// The system programs some tests need, and whether those tests may be skipped without them.
///
/// On a newcomer's machine a test whose program is missing is skipped with its reason. CI
/// installs every program first and sets `SHORTCUTS_TESTS_REQUIRE_ALL=1`: then a missing program
/// does not skip the test, which runs and fails, so CI never passes by skipping.
///
/// ```swift
/// @Test(.enabled(if: SystemComponents.available("/usr/bin/script"), "needs script(1) for a terminal"))
/// func drawsOnATerminal() throws { … }
/// ```
public enum SystemComponents {
    /// Whether skipping is refused (`SHORTCUTS_TESTS_REQUIRE_ALL=1`, as CI sets).
    public static var isRequired: Bool {
        ProcessInfo.processInfo.environment["SHORTCUTS_TESTS_REQUIRE_ALL"] == "1"
    }

    /// Whether the executables exist, or must be treated as present because skipping is refused.
    ///
    /// - Parameters:
    ///   - paths: Absolute paths of the executables.
    ///   - asRoot: Whether the test also needs to run as root.
    /// - Returns: `true` when the test should run.
    public static func available(_ paths: String..., asRoot: Bool = false) -> Bool {
        let present = paths.allSatisfy(FileManager.default.isExecutableFile(atPath:)) && (!asRoot || getuid() == 0)
        return present || isRequired
    }
}
