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
        let registered = DispatchGroup()
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
        // Registration takes microseconds; the bound only keeps a broken dispatch from hanging the command.
        _ = registered.wait(timeout: .now() + 5)
    }

    /// Stops listening; the signals keep being ignored.
    func stop() {
        for source in sources { source.cancel() }
    }
}
