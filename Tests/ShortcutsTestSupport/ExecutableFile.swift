import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes programs that tests then start.
///
/// The file is written through a descriptor opened with `O_CLOEXEC`: a process that another test
/// starts at the same moment does not inherit it, so starting the program cannot fail with
/// "text file busy" (`ETXTBSY`) because some other test's child still holds it open for
/// writing, as it can after `String.write(to:atomically:encoding:)`.
///
/// ```swift
/// try ExecutableFile.write("#!/bin/sh\nexit 3\n", to: folder.appendingPathComponent("tool"))
/// ```
public enum ExecutableFile {
    /// Writes (or replaces) an executable file, mode 0755.
    ///
    /// - Parameters:
    ///   - text: The program's text.
    ///   - url: Where to write it.
    /// - Throws: `POSIXError` when it cannot be written.
    public static func write(_ text: String, to url: URL) throws {
        let staging = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        let descriptor = open(staging.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                unlink(staging.path)
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
            written += count
        }
        // The mode given to open() is narrowed by the umask.
        fchmod(descriptor, 0o755)
        close(descriptor)
        guard rename(staging.path, url.path) == 0 else {
            let code = errno
            unlink(staging.path)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }
}
