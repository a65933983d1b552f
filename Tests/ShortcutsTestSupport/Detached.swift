import Foundation

/// Runs blocking work (waiting for a process, a socket or a file) on a thread outside Swift's
/// cooperative pool.
///
/// The pool has one thread per core: a test that blocks one of its threads for seconds stalls
/// every other task beside it, its own server's included.
///
/// ```swift
/// let status = try await detached { process.waitUntilExit(); return process.terminationStatus }
/// ```
public func detached<T: Sendable>(_ work: @Sendable @escaping () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
