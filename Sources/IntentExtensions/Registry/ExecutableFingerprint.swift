import Foundation
import Glibc

/// What tells that an extension's program changed: its size, modification time and inode.
///
/// ```swift
/// let before = try ExecutableFingerprint(path: "/usr/local/bin/greeter")
/// // … the program is rebuilt …
/// try ExecutableFingerprint(path: "/usr/local/bin/greeter") == before   // false
/// ```
public struct ExecutableFingerprint: Codable, Sendable, Equatable {
    /// The size in bytes.
    public var size: Int64
    /// The modification time, in nanoseconds since 1970.
    public var modified: Int64
    /// The inode number (a program replaced by a rename has a new one).
    public var inode: UInt64

    /// Creates a fingerprint from its parts.
    public init(size: Int64, modified: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.inode = inode
    }

    /// Reads the fingerprint of the file at `path` (links followed).
    ///
    /// - Throws: ``ExtensionRegistryError/executableMissing(name:path:reason:)`` with the reason.
    public init(path: String, name: String = "") throws {
        var information = stat()
        guard stat(path, &information) == 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno)).lowercased()
            throw ExtensionRegistryError.executableMissing(name: name, path: path, reason: reason)
        }
        size = Int64(information.st_size)
        modified = Int64(information.st_mtim.tv_sec) * 1_000_000_000 + Int64(information.st_mtim.tv_nsec)
        inode = UInt64(information.st_ino)
    }
}
