import EmbeddingKernels
import Foundation

/// A SHA-256 digest computed in pieces, written as 64 lowercase hexadecimal digits.
///
/// ```swift
/// var digest = SHA256Digest()
/// digest.update(Data("abc".utf8))
/// digest.hexadecimal()   // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
struct SHA256Digest {
    private var context = ek_sha256_context()

    init() {
        ek_sha256_init(&context)
    }

    /// Adds bytes to the digest.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        ek_sha256_update(&context, base, bytes.count)
    }

    /// Adds bytes to the digest.
    mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// Ends the digest: its 32 bytes as hexadecimal digits.
    mutating func hexadecimal() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        ek_sha256_final(&context, &bytes)
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The digest of a whole file, read in pieces of 1 MiB.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - progress: Called with the number of bytes read so far, after each piece.
    /// - Throws: The error of opening or reading the file.
    static func ofFile(at url: URL, progress: ((Int) -> Void)? = nil) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var digest = SHA256Digest()
        var read = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            digest.update(chunk)
            read += chunk.count
            progress?(read)
        }
        return digest.hexadecimal()
    }
}
