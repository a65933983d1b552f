import CDigests
import Foundation

/// SHA-256 (FIPS 180-4): a digest fed in pieces of any size, or computed at once.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(Data("ab".utf8))
/// hasher.update(Data("c".utf8))
/// hasher.finalize().hexadecimal   // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
///
/// SHA256.hash(Data("abc".utf8)) == hasher.finalize()   // true
/// ```
public struct SHA256: Sendable {
    /// The bytes of a digest: 32.
    public static let byteCount = 32
    /// The bytes of a block, the unit the compression function takes: 64.
    public static let blockByteCount = 64

    private var context = digests_sha256_context()

    /// Starts a digest of no bytes.
    public init() {
        digests_sha256_init(&context)
    }

    /// Adds bytes to the digest.
    ///
    /// - Parameter bytes: The bytes, in memory.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        digests_sha256_update(&context, base, bytes.count)
    }

    /// Adds bytes to the digest.
    ///
    /// ```swift
    /// hasher.update(Data("abc".utf8))
    /// hasher.update([0x61, 0x62, 0x63] as [UInt8])
    /// ```
    ///
    /// - Parameter bytes: The bytes: `Data`, `[UInt8]`, a slice of either.
    public mutating func update(_ bytes: some DataProtocol) {
        for region in bytes.regions {
            region.withUnsafeBytes { update($0) }
        }
    }

    /// The digest of the bytes added so far; more can be added afterwards, for a longer digest.
    ///
    /// - Returns: The 32 bytes.
    public func finalize() -> Digest {
        var ending = context
        var bytes = [UInt8](repeating: 0, count: Self.byteCount)
        digests_sha256_final(&ending, &bytes)
        return Digest(bytes: bytes)
    }

    /// The digest of bytes given at once.
    ///
    /// ```swift
    /// SHA256.hash(Data()).hexadecimal   // "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// ```
    ///
    /// - Parameter bytes: The bytes.
    /// - Returns: Their digest.
    public static func hash(_ bytes: some DataProtocol) -> Digest {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }
}
