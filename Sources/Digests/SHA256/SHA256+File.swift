import Foundation

extension SHA256 {
    /// The digest of a whole file, read in pieces of 1 MiB, so that a file of any size costs
    /// little memory.
    ///
    /// ```swift
    /// let digest = try SHA256.hash(contentsOf: URL(fileURLWithPath: "model.safetensors")) { read in
    ///     print("\(read) bytes read")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - progress: Called with the number of bytes read so far, after each piece.
    /// - Returns: The file's digest.
    /// - Throws: The error of opening or reading the file.
    public static func hash(contentsOf url: URL, progress: ((Int) -> Void)? = nil) throws -> Digest {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        var read = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(chunk)
            read += chunk.count
            progress?(read)
        }
        return hasher.finalize()
    }
}
