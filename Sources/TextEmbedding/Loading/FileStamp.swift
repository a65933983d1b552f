import Foundation

/// The identity of a file a cache was made from: its size and modification time in nanoseconds.
///
/// A vocabulary cache records the stamp of the `tokenizer.json` it was made from and is ignored
/// once the file's stamp differs.
///
/// ```swift
/// guard let stamp = FileStamp(of: tokenizerFile) else { return nil }   // nil: the file is unreadable
/// ```
struct FileStamp: Equatable {
    var size: UInt64
    var modified: Int64

    /// The file's stamp, or `nil` when it cannot be read.
    init?(of url: URL) {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        #if os(Linux)
            modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        #else
            modified = Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
        #endif
        size = UInt64(status.st_size)
    }
}
