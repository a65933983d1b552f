import Foundation
import ShortcutsSystemTestSupport

extension ShortcutsBinary {
    /// Runs the binary at a lower CPU priority (`nice -n 10`), so that a load test's many
    /// processes do not slow the timed tests of the suites running beside it.
    func runNiced(_ arguments: [String]) async throws -> Result {
        try await run(arguments, launcher: ["/usr/bin/nice", "-n", "10"])
    }
}
