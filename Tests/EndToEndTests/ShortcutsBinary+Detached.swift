import Foundation

/// Runs blocking work (waiting for processes) on a thread outside Swift's cooperative pool.
///
/// The pool has one thread per core: tests that block its threads for seconds stall every
/// other suite's tasks (such as the daemon tests' polling) running beside them.
///
/// ```swift
/// let books = try await detached { try shortcuts.run(["perform", "Library.AddBook", "title=Emma"]) }
/// ```
func detached<T: Sendable>(_ work: @Sendable @escaping () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

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
