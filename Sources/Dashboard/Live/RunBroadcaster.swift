#if Web
    import Foundation
    import Synchronization
    import WorkflowKit

    /// Hands what changed in the run history to every open page. One ``RunPoller`` per server
    /// reads the history (every process's runs: a daemon elsewhere writing the same store shows up
    /// too) while at least one page listens, and stops when the last one leaves.
    ///
    /// Each page has a buffer of ``bufferSize`` events. A page that reads too slowly to keep up is
    /// dropped (its stream ends, and the browser connects again), never waited for.
    final class RunBroadcaster: Sendable {
        /// How many events wait for a page before it is dropped.
        static let bufferSize = 256

        private struct State {
            var subscribers: [UUID: AsyncStream<LiveEvent>.Continuation] = [:]
            var poller: Task<Void, Never>?
            var isClosed = false
        }

        private let configuration: DashboardConfiguration
        private let state = Mutex(State())

        init(_ configuration: DashboardConfiguration) {
            self.configuration = configuration
        }

        /// How many pages listen.
        var subscriberCount: Int { state.withLock { $0.subscribers.count } }

        /// A new listener's events; the stream ends when the listener is dropped or the server stops.
        func subscribe() -> AsyncStream<LiveEvent> {
            let id = UUID()
            let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingOldest(Self.bufferSize))
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
            let isClosed = state.withLock { state in
                guard !state.isClosed else { return true }
                state.subscribers[id] = continuation
                if state.poller == nil {
                    let poller = RunPoller(configuration: configuration, broadcaster: self)
                    state.poller = Task.detached { await poller.run() }
                }
                return false
            }
            if isClosed { continuation.finish() }
            return stream
        }

        /// Sends an event to every listener, dropping those whose buffer is full.
        func send(_ event: LiveEvent) {
            let dropped = state.withLock { state in
                var dropped: [AsyncStream<LiveEvent>.Continuation] = []
                for (id, continuation) in state.subscribers {
                    if case .dropped = continuation.yield(event) {
                        state.subscribers[id] = nil
                        dropped.append(continuation)
                    }
                }
                return dropped
            }
            for continuation in dropped {
                configuration.logger.notice("dropped a live page that did not keep up with \(Self.bufferSize) waiting events")
                continuation.finish()
            }
        }

        /// Ends every stream and stops the poller: the server is stopping.
        func close() {
            let (continuations, poller) = state.withLock { state in
                state.isClosed = true
                defer {
                    state.subscribers = [:]
                    state.poller = nil
                }
                return (Array(state.subscribers.values), state.poller)
            }
            poller?.cancel()
            for continuation in continuations { continuation.finish() }
        }

        private func remove(_ id: UUID) {
            let poller = state.withLock { state -> Task<Void, Never>? in
                state.subscribers[id] = nil
                guard state.subscribers.isEmpty else { return nil }
                defer { state.poller = nil }
                return state.poller
            }
            poller?.cancel()
        }
    }
#endif
