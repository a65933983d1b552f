import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs HTTP requests on one URLSession shared by the process (so connections are reused
/// between steps), keeping a body in memory up to a limit or streaming it into an open file.
///
/// The session keeps no cookies and no cache: every fetch sees what the server says now, and
/// one workflow's cookies never reach another's requests in the daemon.
///
/// ```swift
/// let outcome = try await HTTPTransfer.shared.fetch(request, into: .memory(limit: 1 << 20), deadline: .seconds(5))
/// ```
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// The transfer every intent uses.
    static let shared = HTTPTransfer()

    /// Where a body goes.
    enum Destination {
        /// Into memory, failing past `limit` bytes.
        case memory(limit: Int)
        /// Written to an open file as it arrives.
        case file(FileHandle, path: String)
    }

    /// A finished response: its status and headers, and the body when it was kept in memory.
    struct Outcome {
        var response: HTTPURLResponse
        var body: Data
    }

    /// Why a transfer did not finish.
    enum Failure: Error {
        /// The body is larger than the limit for a body in memory.
        case tooLarge(limit: Int)
        /// The deadline passed first.
        case timedOut
        /// The file the body streams into could not be written.
        case cannotWrite(path: String, reason: String)
        /// The network or the server failed.
        case transport(URLError)
        /// The caller cancelled.
        case cancelled
    }

    private var session: URLSession!
    private let state = Mutex(State())
    private let sweepQueue = DispatchQueue(label: "Web.GetContentsOfURL.deadlines")

    /// The requests in flight, and the timer that ends those past their deadline while there
    /// are any: one timer for all, rather than one per request.
    private struct State {
        var transfers: [Int: Transfer] = [:]
        var sweeper: (any DispatchSourceTimer)?
    }

    /// How often deadlines are checked.
    private static let sweepInterval = DispatchTimeInterval.milliseconds(50)

    override private init() {
        super.init()
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.name = "Web.GetContentsOfURL"
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    /// Sends a request and waits for the whole response.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - destination: Where the body goes.
    ///   - deadline: How long the whole transfer may take.
    /// - Returns: The response, and the body when it went to memory.
    /// - Throws: ``Failure``.
    func fetch(_ request: URLRequest, into destination: Destination, deadline: Duration) async throws -> Outcome {
        let task = session.dataTask(with: request)
        let transfer = Transfer(task: task, destination: destination, deadline: .now + deadline)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Cancelled before it started: the task is never resumed.
                if let failure = transfer.failure { return continuation.resume(throwing: failure) }
                transfer.continuation = continuation
                state.withLock { state in
                    state.transfers[task.taskIdentifier] = transfer
                    if state.sweeper == nil { state.sweeper = startSweeper() }
                }
                task.resume()
            }
        } onCancel: {
            if transfer.fail(.cancelled) { task.cancel() }
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let transfer = transfer(of: dataTask) else { return completionHandler(.cancel) }
        // URLSession on Linux ignores the disposition, so a refused body is cancelled here.
        if case .memory(let limit) = transfer.destination, !transfer.isHEAD, response.expectedContentLength > Int64(limit) {
            if transfer.fail(.tooLarge(limit: limit)) { dataTask.cancel() }
            return completionHandler(.cancel)
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(of: dataTask), transfer.failure == nil else { return }
        switch transfer.destination {
        case .memory(let limit):
            if transfer.body.count + data.count > limit {
                if transfer.fail(.tooLarge(limit: limit)) { dataTask.cancel() }
                return
            }
            transfer.body.append(data)
        case .file(let handle, let path):
            do {
                try handle.write(contentsOf: data)
            } catch {
                if transfer.fail(.cannotWrite(path: path, reason: Self.reason(error))) { dataTask.cancel() }
            }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = state.withLock({ $0.transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = transfer.failure {
            transfer.continuation?.resume(throwing: failure)
        } else if let error {
            let urlError = error as? URLError ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error])
            transfer.continuation?.resume(throwing: urlError.code == .cancelled ? Failure.cancelled : Failure.transport(urlError))
        } else if let response = task.response as? HTTPURLResponse {
            transfer.continuation?.resume(returning: Outcome(response: response, body: transfer.body))
        } else {
            transfer.continuation?.resume(throwing: Failure.transport(URLError(.badServerResponse)))
        }
        transfer.continuation = nil
    }

    private func transfer(of task: URLSessionTask) -> Transfer? {
        state.withLock { $0.transfers[task.taskIdentifier] }
    }

    private func startSweeper() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: sweepQueue)
        timer.schedule(deadline: .now() + Self.sweepInterval, repeating: Self.sweepInterval, leeway: .milliseconds(10))
        timer.setEventHandler { [weak self] in self?.sweep() }
        timer.resume()
        return timer
    }

    /// Ends the transfers past their deadline; stops the timer when none is in flight.
    private func sweep() {
        let now = ContinuousClock.now
        let expired: [Transfer] = state.withLock { state in
            guard !state.transfers.isEmpty else {
                state.sweeper?.cancel()
                state.sweeper = nil
                return []
            }
            return state.transfers.values.filter { $0.deadline <= now }
        }
        for transfer in expired where transfer.fail(.timedOut) { transfer.task.cancel() }
    }

    /// An error's text without its domain and code.
    static func reason(_ error: any Error) -> String {
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(posix.code))
        {
            return String(cString: strerror(code.rawValue)).lowercased()
        }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)).lowercased() }
        return error.localizedDescription
    }

    /// One request in flight. Its body and failure are touched on the session's delegate queue;
    /// the first failure wins, under a lock, whoever records it.
    private final class Transfer: @unchecked Sendable {
        let task: URLSessionDataTask
        let destination: Destination
        let deadline: ContinuousClock.Instant
        var body = Data()
        var continuation: CheckedContinuation<Outcome, any Error>?
        private let recordedFailure = Mutex<Failure?>(nil)

        init(task: URLSessionDataTask, destination: Destination, deadline: ContinuousClock.Instant) {
            self.task = task
            self.destination = destination
            self.deadline = deadline
        }

        var isHEAD: Bool { task.originalRequest?.httpMethod == "HEAD" }

        var failure: Failure? { recordedFailure.withLock { $0 } }

        /// Records a failure unless one is already recorded; returns whether this one was.
        func fail(_ failure: Failure) -> Bool {
            recordedFailure.withLock { recorded in
                guard recorded == nil else { return false }
                recorded = failure
                return true
            }
        }
    }
}
