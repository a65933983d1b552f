import Foundation
import Testing

/// The trait of tests that keep a core busy for seconds (fuzzers, thousands of loads): each test
/// case runs on a thread of its own instead of one of Swift's cooperative pool.
///
/// The pool has one thread per core. Two such tests on it would hold both threads for minutes,
/// and every other test's tasks, its servers' and its clocks' waiters among them, would wait
/// behind them: a test on a manual clock would find no sleeper within its patience. Here the
/// test's body, and the tasks it starts, prefer a task executor whose one thread the test owns.
///
/// ```swift
/// @Suite("Loading fuzz", .onThreadOfItsOwn)
/// struct LoadingFuzzTests { … }
/// ```
public struct OwnThreadTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await runOnThreadOfItsOwn(function)
    }
}

/// Runs `work`, and the tasks it starts, on a thread of its own rather than Swift's
/// cooperative pool, so that whatever blocks in it holds none of the pool's threads.
func runOnThreadOfItsOwn(_ work: @Sendable () async throws -> Void) async throws {
    let executor = ThreadExecutor()
    defer { executor.shutDown() }
    try await withTaskExecutorPreference(executor) { try await work() }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test case runs on a thread of its own, off Swift's cooperative pool.
    public static var onThreadOfItsOwn: Self { OwnThreadTrait() }
}

/// A task executor that runs its jobs, in order, on a thread of its own. Once shut down, its
/// thread ends when no job is left; a job enqueued later (a task the test left running) starts
/// another.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isShutDown = false
    private var isRunning = false

    init() {
        condition.withLock { startThread() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            if !isRunning { startThread() }
            condition.signal()
        }
    }

    /// Lets the thread end once the jobs enqueued have run.
    func shutDown() {
        condition.withLock {
            isShutDown = true
            condition.signal()
        }
    }

    /// Starts the thread; called with the condition's lock held.
    private func startThread() {
        isRunning = true
        let thread = Thread { [self] in run() }
        thread.name = "test on its own thread"
        // Deep recursion (loaders, parsers) needs the stack a main thread would have.
        thread.stackSize = 8 << 20
        thread.start()
    }

    private func run() {
        while true {
            let next = condition.withLock { () -> UnownedJob? in
                while jobs.isEmpty && !isShutDown { condition.wait() }
                guard !jobs.isEmpty else {
                    isRunning = false
                    return nil
                }
                return jobs.removeFirst()
            }
            guard let next else { return }
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
