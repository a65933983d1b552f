import Foundation
import TextEmbedding

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads a model's files with `URLSession`, following redirects (Hugging Face answers
/// `resolve/` with one to its content store), writing each piece to the file as it arrives.
struct URLSessionModelDownloader: ModelFileDownloader {
    func download(_ url: URL, to destination: URL, progress: @escaping @Sendable (Int) -> Void) async throws {
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw ModelStoreError.storeUnusable(path: destination.path, reason: "the file cannot be created")
        }
        let handle = try FileHandle(forWritingTo: destination)
        defer { try? handle.close() }
        let receiver = FileReceiver(handle: handle, progress: progress)
        let session = URLSession(configuration: .default, delegate: receiver, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                receiver.start(session.dataTask(with: url), continuation: continuation)
            }
        } onCancel: {
            receiver.cancel()
        }
        if let failure = receiver.failure {
            throw ModelStoreError.downloadFailed(url: url.absoluteString, reason: failure)
        }
    }
}

/// Receives one download: writes its bytes and resumes the waiting task when it ends.
private final class FileReceiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let handle: FileHandle
    private let progress: @Sendable (Int) -> Void
    private let lock = NSLock()
    private var received = 0
    private var continuation: CheckedContinuation<Void, any Error>?
    private var task: URLSessionTask?
    private(set) var failure: String?

    init(handle: FileHandle, progress: @escaping @Sendable (Int) -> Void) {
        self.handle = handle
        self.progress = progress
    }

    func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<Void, any Error>) {
        lock.withLock {
            self.task = task
            self.continuation = continuation
        }
        task.resume()
    }

    func cancel() {
        lock.withLock { task }?.cancel()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if let status = (response as? HTTPURLResponse)?.statusCode, status != 200 {
            lock.withLock { failure = "the server answered \(status) \(HTTPURLResponse.localizedString(forStatusCode: status))" }
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let total: Int? = lock.withLock {
            do {
                try handle.write(contentsOf: data)
            } catch {
                failure = "the file cannot be written (\(error.localizedDescription))"
                task?.cancel()
                return nil
            }
            received += data.count
            return received
        }
        if let total { progress(total) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let waiting = lock.withLock {
            if let error, failure == nil {
                failure = (error as NSError).code == NSURLErrorCancelled ? "cancelled" : error.localizedDescription
            }
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume()
    }
}
