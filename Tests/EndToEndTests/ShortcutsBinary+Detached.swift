import Foundation
import Synchronization

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
        process.arguments = ["-n", "10", Self.executable.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SHORTCUTS_HOME"] = home.path
        environment.removeValue(forKey: "SHORTCUTS_LOCALE")
        process.environment = environment
        process.currentDirectoryURL = Self.packageRoot
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes are drained at once, so neither can fill up and block the process.
        let errorData = Mutex(Data())
        let drained = DispatchSemaphore(value: 0)
        let errorHandle = error.fileHandleForReading
        Thread.detachNewThread {
            let data = errorHandle.readDataToEndOfFile()
            errorData.withLock { $0 = data }
            drained.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                      error: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }
}
