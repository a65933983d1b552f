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
    /// - Returns: The response, and the body when it went to memory.
    /// - Throws: ``Failure``.
    func fetch(_ request: URLRequest, into destination: Destination, deadline: Duration) async throws -> Outcome {
        let task = session.dataTask(with: request)
        let transfer = Transfer(destination: destination, isHEAD: request.httpMethod == "HEAD")
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Cancelled before it started: the task is never resumed.
                if let failure = transfer.failure { return continuation.resume(throwing: failure) }
                transfer.continuation = continuation
                transfers.withLock { $0[task.taskIdentifier] = transfer }
                let timer = DispatchWorkItem { [weak task, weak transfer] in
                    guard let task, let transfer, transfer.fail(.timedOut) else { return }
                    task.cancel()
                }
                transfer.timer = timer
                task.resume()
                let seconds = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: timer)
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
        if case .memory(let limit) = transfer.destination, !transfer.isHEAD, response.expectedContentLength > Int64(limit) {
            _ = transfer.fail(.tooLarge(limit: limit))
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
        transfer.timer?.cancel()
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

    /// One request in flight. Its body and failure are touched on the session's delegate queue;
    /// the first failure wins, under a lock, whoever records it.
    private final class Transfer: @unchecked Sendable {
        let destination: Destination
        let isHEAD: Bool
        var body = Data()
        var continuation: CheckedContinuation<Outcome, any Error>?
        var timer: DispatchWorkItem?
        private let recordedFailure = Mutex<Failure?>(nil)

        init(destination: Destination, isHEAD: Bool) {
            self.destination = destination
            self.isHEAD = isHEAD
        }

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
