import Clockwork
import Dispatch
import Foundation

/// Turns signals such as SIGINT and SIGTERM into calls, from the moment `init` returns.
///
/// The signals' default actions are switched off and a dispatch source listens for each.
/// A dispatch source is registered with the system asynchronously after `resume()`; a
/// signal arriving in between would be ignored and lost, so `init` waits until every source
/// is registered.
///
/// ```swift
/// let watch = SignalWatch([SIGINT, SIGTERM]) { signal in interruption.interrupt() }
/// defer { watch.stop() }
/// ```
final class SignalWatch: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    /// Starts listening.
    ///
    /// - Parameters:
    ///   - signals: The signal numbers.
    ///   - handler: Called on a global queue with the number of each signal received.
    init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        let registered = NSCondition()
        nonisolated(unsafe) var waiting = signals.count
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setRegistrationHandler {
                registered.withLock {
                    waiting -= 1
                    registered.broadcast()
                }
            }
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
        // Registration takes microseconds; the bound only keeps a broken dispatch from hanging the command.
        let clock = TaskClock.current
        let deadline = clock.now().addingTimeInterval(5)
        registered.withLock {
            while waiting > 0, clock.wait(on: registered, until: deadline) {}
        }
    }

    /// Stops listening; the signals keep being ignored.
    func stop() {
        for source in sources { source.cancel() }
    }
}
