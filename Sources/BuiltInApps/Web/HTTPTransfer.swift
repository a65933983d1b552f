import Clockwork
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
/// let outcome = try await HTTPTransfer.shared.fetch(request, into: .memory(limit: 1 << 20), deadline: .seconds(5), clock: .system)
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
    /// The requests in flight, by task identifier.
    private let transfers = Mutex<[Int: Transfer]>([:])

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
    ///   - clock: The clock the deadline is kept by.
    /// - Returns: The response, and the body when it went to memory.
    /// - Throws: ``Failure``.
    func fetch(
        _ request: URLRequest, into destination: Destination, deadline: Duration, clock: any EngineClock
    ) async throws -> Outcome {
        let task = session.dataTask(with: request)
        let transfer = Transfer(task: task, destination: destination)
        let expiry = clock.now().adding(deadline)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Cancelled before it started: the task is never resumed.
                guard transfer.wait(with: continuation) else { return }
                transfers.withLock { $0[task.taskIdentifier] = transfer }
                transfer.expire(at: expiry, clock: clock)
                task.resume()
            }
        } onCancel: {
            if transfer.fail(.cancelled) {
                task.cancel()
                transfer.answerEarly(.cancelled)
            }
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
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        transfer.stopExpiry()
        if let failure = transfer.failure {
            transfer.answer(.failure(failure))
        } else if let error {
            let urlError = error as? URLError ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error])
            transfer.answer(.failure(urlError.code == .cancelled ? Failure.cancelled : Failure.transport(urlError)))
        } else if let response = task.response as? HTTPURLResponse {
            transfer.answer(.success(Outcome(response: response, body: transfer.body)))
        } else {
            transfer.answer(.failure(Failure.transport(URLError(.badServerResponse))))
        }
    }

    private func transfer(of task: URLSessionTask) -> Transfer? {
        transfers.withLock { $0[task.taskIdentifier] }
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

    /// One request in flight. Its body is touched on the session's delegate queue; the first
    /// failure wins, under a lock, whoever records it; the caller is answered once, by whoever
    /// answers first.
    private final class Transfer: @unchecked Sendable {
        let task: URLSessionDataTask
        let destination: Destination
        var body = Data()
        private let recordedFailure = Mutex<Failure?>(nil)
        /// Sleeps on the clock until the deadline, then ends the transfer.
        private let expiry = Mutex<Task<Void, Never>?>(nil)
        private let waiting = Mutex(Waiting.idle)

        /// Who waits for the transfer's answer, or the answer that came first.
        private enum Waiting {
            case idle
            case waiting(CheckedContinuation<Outcome, any Error>)
            case answered(Result<Outcome, Failure>)
            case done
        }

        /// Keeps the caller's continuation until the transfer ends. When the transfer failed
        /// or was answered before it started, answers at once and returns `false`.
        func wait(with continuation: CheckedContinuation<Outcome, any Error>) -> Bool {
            if let failure { answer(.failure(failure)) }
            let early: Result<Outcome, Failure>? = waiting.withLock { waiting in
                switch waiting {
                case .answered(let result):
                    waiting = .done
                    return result
                default:
                    waiting = .waiting(continuation)
                    return nil
                }
            }
            guard let early else { return true }
            continuation.resume(with: early.mapError { $0 as any Error })
            return false
        }

        /// Answers the caller, unless it was answered already.
        func answer(_ result: Result<Outcome, Failure>) {
            let continuation: CheckedContinuation<Outcome, any Error>? = waiting.withLock { waiting in
                switch waiting {
                case .idle:
                    waiting = .answered(result)
                    return nil
                case .waiting(let continuation):
                    waiting = .done
                    return continuation
                case .answered, .done:
                    return nil
                }
            }
            continuation?.resume(with: result.mapError { $0 as any Error })
        }

        /// Answers a timeout or a cancellation without waiting for the session to report the
        /// task's end, which a busy session can delay: a body in memory is dropped, so nothing
        /// is left to finish. A body streaming into a file is answered when the task ends, so
        /// the file is never written after the caller has moved on.
        func answerEarly(_ failure: Failure) {
            guard case .memory = destination else { return }
            answer(.failure(failure))
        }

        init(task: URLSessionDataTask, destination: Destination) {
            self.task = task
            self.destination = destination
        }

        /// Ends the transfer with ``Failure/timedOut`` when `clock` reaches `deadline`,
        /// unless it ended first.
        func expire(at deadline: Date, clock: any EngineClock) {
            let waiter = Task.detached { [weak self] in
                guard (try? await clock.sleep(until: deadline)) != nil, let self, self.fail(.timedOut) else { return }
                self.task.cancel()
                self.answerEarly(.timedOut)
            }
            expiry.withLock { $0 = waiter }
        }

        /// The transfer ended: its deadline no longer matters.
        func stopExpiry() {
            expiry.withLock { $0 }?.cancel()
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
