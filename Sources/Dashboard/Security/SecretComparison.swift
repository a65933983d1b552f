import Digests
import Foundation

/// Compares a presented secret (a token, a form token) with the expected one in a time that
/// depends on neither where they first differ nor the expected one's length: their SHA-256
/// digests are compared in constant time, so that timing the answers reveals nothing of the
/// secret.
///
/// ```swift
/// SecretComparison.matches(presented, expected: token)   // true only when equal
/// ```
enum SecretComparison {
    /// Whether the two texts are equal, byte for byte.
    static func matches(_ presented: String, expected: String) -> Bool {
        ConstantTime.isEqual(SHA256.hash(Data(presented.utf8)).bytes, SHA256.hash(Data(expected.utf8)).bytes)
    }
}
