/// Compares a presented secret (a token, a form token) with the expected one in a time that
/// depends only on their lengths, never on where they first differ, so that timing the
/// answers reveals nothing of the secret.
///
/// ```swift
/// SecretComparison.matches(presented, expected: token)   // true only when equal
/// ```
enum SecretComparison {
    /// Whether the two texts are equal, byte for byte.
    static func matches(_ presented: String, expected: String) -> Bool {
        let given = Array(presented.utf8)
        let wanted = Array(expected.utf8)
        var difference = UInt8(truncatingIfNeeded: given.count ^ wanted.count)
        difference |= UInt8(given.count == wanted.count ? 0 : 1)
        for index in 0..<wanted.count {
            difference |= wanted[index] ^ (index < given.count ? given[index] : ~wanted[index])
        }
        return difference == 0
    }
}
