import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A read-only file mapped into memory: its pages are read from disk when first touched and
/// shared with every other process mapping the same file, so opening a large model costs no copy.
final class MappedFile: @unchecked Sendable {
    /// The file's path, for error messages.
    let path: String

    /// The first byte of the mapping (page-aligned), or nil for an empty file.
    let base: UnsafeRawPointer?

    /// The file's size in bytes.
    let count: Int

    /// Maps a whole file.
    ///
    /// - Parameter path: The file's path.
    /// - Throws: ``ModelLoadingError`` when the file is missing or cannot be mapped.
    init(path: String) throws {
        self.path = path
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw ModelLoadingError.missing(path) }
            throw ModelLoadingError.unreadable(path, String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw ModelLoadingError.unreadable(path, String(cString: strerror(errno)))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw ModelLoadingError.unreadable(path, "it is not a regular file")
        }
        count = Int(status.st_size)
        if count == 0 {
            base = nil
            return
        }
        let mapping = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let mapping, mapping != MAP_FAILED else {
            throw ModelLoadingError.unreadable(path, String(cString: strerror(errno)))
        }
        base = UnsafeRawPointer(mapping)
    }

    deinit {
        if let base { munmap(UnsafeMutableRawPointer(mutating: base), count) }
    }

    /// The bytes from `offset` on, `length` of them (the caller has checked the range).
    func bytes(at offset: Int, count length: Int) -> UnsafeRawBufferPointer {
        guard let base else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: base + offset, count: length)
    }
}
