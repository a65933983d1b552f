import Foundation
import ShortcutsTestSupport

extension ShortcutsBinary {
    /// Runs the binary, waiting for it outside Swift's cooperative pool.
    func runDetached(_ arguments: [String]) async throws -> Result {
        try await detached { try self.run(arguments) }
    }
}

extension ShortcutsBinary {
    /// Runs the binary at a lower CPU priority (`nice -n 10`), so that a load test's many
    /// processes do not slow the timed tests of the suites running beside it.
    func runNiced(_ arguments: [String]) throws -> Result {
        try run(arguments, launcher: ["/usr/bin/nice", "-n", "10"])
    }
}
