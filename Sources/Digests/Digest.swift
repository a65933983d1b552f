import CDigests
import Foundation

/// The bytes a digest or an authentication code ends with: 32 for ``SHA256`` and ``HMACSHA256``.
///
/// Two digests are compared in constant time (``ConstantTime``), so `==` on a code computed from
/// a secret and a code received tells nothing of how many leading bytes matched.
///
/// ```swift
/// let digest = SHA256.hash(Data("abc".utf8))
/// digest.hexadecimal   // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// digest == Digest(hexadecimal: "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD")   // true
/// ```
public struct Digest: Sendable, Hashable, CustomStringConvertible {
    /// The bytes, in order.
    public let bytes: [UInt8]

    /// Creates a digest from its bytes.
    ///
    /// - Parameter bytes: The bytes, such as a code received in binary form.
    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    /// Reads a digest written in hexadecimal digits, in either case (`sha256=…` headers give them so).
    ///
    /// ```swift
    /// Digest(hexadecimal: "00ff")?.bytes   // [0, 255]
    /// Digest(hexadecimal: "0g")            // nil
    /// ```
    ///
    /// - Parameter text: Two digits per byte, nothing else.
    /// - Returns: `nil` when the text has an odd length or a character that is not a hexadecimal digit.
    public init?(hexadecimal text: some StringProtocol) {
        guard let bytes = Hexadecimal.decode(text) else { return nil }
        self.bytes = bytes
    }

    /// The bytes as lowercase hexadecimal digits, two per byte.
    public var hexadecimal: String { Hexadecimal.encode(bytes) }

    /// The lowercase hexadecimal digits.
    public var description: String { hexadecimal }

    /// Whether two digests have the same bytes, compared in constant time.
    public static func == (lhs: Digest, rhs: Digest) -> Bool {
        ConstantTime.isEqual(lhs.bytes, rhs.bytes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes)
    }
}
