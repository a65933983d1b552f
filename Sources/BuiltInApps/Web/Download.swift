import Foundation
import IntentKit

/// A body being saved to a file: it streams into a hidden temporary file in the same folder,
/// which replaces the file in one `rename` when the body is complete, so the file is never
/// seen half written and an earlier version stays whole when the transfer fails.
///
/// ```swift
/// let download = try Download(path: "~/Downloads/report.pdf")
/// // … write to download.handle …
/// let file = try download.finish()   // ~/Downloads/report.pdf
/// ```
final class Download: Sendable {
    /// The destination's path as given.
    let path: String
    /// The destination, with `~` expanded and relative paths resolved against the working
    /// directory.
    let destination: URL
    /// The temporary file.
    let temporary: URL
    /// The temporary file, open for writing.
    let handle: FileHandle

    /// Creates the temporary file beside the destination.
    ///
    /// - Throws: ``WebApp/GetContentsOfURL/Error/cannotSave(path:reason:)`` when the folder is
    ///   missing, not a folder or not writable, or the destination is a folder.
    init(path: String) throws {
        self.path = path
        destination = URL(fileURLWithPath: HomeFolder.expandingTilde(path)).standardizedFileURL
        let folder = destination.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isFolder), isFolder.boolValue {
            throw WebApp.GetContentsOfURL.Error.cannotSave(path: path, reason: "it is a folder; give a file path")
        }
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw WebApp.GetContentsOfURL.Error.cannotSave(path: path, reason: "the folder \(folder.path) does not exist")
        }
        temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString.prefix(8)).download")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = errno == EACCES ? "permission denied in \(folder.path)" : String(cString: strerror(errno)).lowercased()
            throw WebApp.GetContentsOfURL.Error.cannotSave(path: path, reason: reason)
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// The first bytes written, for an error message.
    func firstBytes() -> Data {
        (try? FileHandle(forReadingFrom: temporary).read(upToCount: 400)) ?? Data()
    }

    /// Flushes the temporary file to disk and renames it over the destination.
    ///
    /// - Returns: The saved file.
    /// - Throws: ``WebApp/GetContentsOfURL/Error/cannotSave(path:reason:)``.
    func finish() throws -> IntentFile {
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            discard()
            throw WebApp.GetContentsOfURL.Error.cannotSave(path: path, reason: HTTPTransfer.reason(error))
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno)).lowercased()
            discard()
            throw WebApp.GetContentsOfURL.Error.cannotSave(path: path, reason: reason)
        }
        return IntentFile(fileURL: destination)
    }

    /// Removes the temporary file, leaving the destination as it was.
    func discard() {
        try? handle.close()
        unlink(temporary.path)
    }
}
