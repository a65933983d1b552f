import ExtensionSpawn
import Foundation
import Synchronization

/// The one thread that starts every extension process, and lives as long as the engine.
///
/// An extension is started with `PR_SET_PDEATHSIG` so that the kernel kills it when the engine
/// dies, even by `SIGKILL`. The kernel sends that signal when the *thread* that forked the
/// extension ends, not the process: a thread of a pool could end while the engine goes on and
/// take its extensions with it. So every start happens on this thread, which never ends.
final class LauncherThread: Sendable {
    static let shared = LauncherThread()

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let ready = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in
            while true {
                ready.wait()
                let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                job?()
            }
        }
        thread.name = "extension launcher"
        thread.start()
    }

    /// Runs `work` on the launcher thread and returns its result.
    func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result) -> Result {
        let outcome = Outcome<Result>()
        jobs.withLock { $0.append { outcome.set(work()) } }
        ready.signal()
        return outcome.wait()
    }

    private final class Outcome<Value: Sendable>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var value: Value?

        func set(_ value: Value) {
            self.value = value
            done.signal()
        }

        func wait() -> Value {
            done.wait()
            return value!
        }
    }
}
