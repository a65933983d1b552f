import Foundation

/// Runs work on a thread with a large stack and waits for its result.
///
/// Building the node tree, converting it and releasing it all recurse once per level of
/// nesting. The YAML parser stops at 1,000 levels, and the converter at
/// ``WorkflowConverter/maximumDepth``; a stack of known, generous size makes those depths
/// safe whatever thread (a small secondary one, an unoptimised build) loads the file.
enum LargeStackThread {
    /// The stack size of the worker thread.
    static let stackSize = 64 << 20

    /// Runs `work` on a new thread with a ``stackSize`` stack and returns its result.
    static func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result) -> Result {
        let box = ResultBox<Result>()
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.value = work()
            finished.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        finished.wait()
        // The worker stores the value before signalling, so it is always there; running the
        // work here instead keeps this total without a force unwrap.
        guard let value = box.value else {
            return work()
        }
        return value
    }
}

/// Hands a result from the worker thread to the waiting one; the semaphore orders the accesses.
private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}
