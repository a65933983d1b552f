import CDigests
import Foundation

/// Comparisons whose time does not depend on where two byte strings differ: what checking a
/// received authentication code against the expected one needs, so that an attacker timing
/// the answers cannot guess the code byte after byte.
///
/// The lengths are not secret: strings of different lengths are unequal at once.
///
/// ```swift
/// let expected = HMACSHA256.authenticationCode(for: body, key: secret)
/// guard let received = Digest(hexadecimal: signature), ConstantTime.isEqual(expected.bytes, received.bytes) else {
///     throw WebhookError.badSignature
/// }
/// ```
public enum ConstantTime {
    /// Whether two byte strings are equal, reading every byte whatever the first difference.
    ///
    /// ```swift
    /// ConstantTime.isEqual([1, 2, 3], [1, 2, 4])   // false, after reading all three bytes
    /// ```
    ///
    /// - Parameters:
    ///   - first: One byte string.
    ///   - second: The other.
    /// - Returns: Whether they have the same length and the same bytes.
    public static func isEqual(_ first: some DataProtocol, _ second: some DataProtocol) -> Bool {
        guard first.count == second.count else { return false }
        let first = Array(first)
        let second = Array(second)
        return first.withUnsafeBufferPointer { first in
            second.withUnsafeBufferPointer { second in
                guard let firstBase = first.baseAddress, let secondBase = second.baseAddress else { return true }
                return digests_equal_in_constant_time(firstBase, secondBase, first.count) != 0
            }
        }
    }

    /// Whether two digests written in hexadecimal digits (in either case) have the same bytes,
    /// compared in constant time.
    ///
    /// ```swift
    /// ConstantTime.isEqual(hexadecimal: "ABCD", "abcd")   // true
    /// ConstantTime.isEqual(hexadecimal: "abcd", "abc")    // false: not hexadecimal bytes
    /// ```
    ///
    /// - Parameters:
    ///   - first: One digest's digits.
    ///   - second: The other's.
    /// - Returns: Whether both are hexadecimal and name the same bytes.
    public static func isEqual(hexadecimal first: some StringProtocol, _ second: some StringProtocol) -> Bool {
        guard let first = Hexadecimal.decode(first), let second = Hexadecimal.decode(second) else { return false }
        return isEqual(first, second)
    }
}
