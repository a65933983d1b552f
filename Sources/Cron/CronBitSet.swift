/// A set of small non-negative integers (0–63) stored as one machine word, so
/// membership and "next value at or after" are single instructions.
struct CronBitSet: Hashable, Sendable {
    private(set) var rawValue: UInt64

    init() {
        rawValue = 0
    }

    init<Values: Sequence<Int>>(_ values: Values) {
        rawValue = 0
        for value in values {
            insert(value)
        }
    }

    mutating func insert(_ value: Int) {
        guard (0..<64).contains(value) else { return }
        rawValue |= 1 << UInt64(value)
    }

    func contains(_ value: Int) -> Bool {
        guard (0..<64).contains(value) else { return false }
        return rawValue & (1 << UInt64(value)) != 0
    }

    /// The smallest member that is greater than or equal to `value`.
    @inline(__always)
    func first(atOrAfter value: Int) -> Int? {
        guard value < 64 else { return nil }
        let masked = value <= 0 ? rawValue : rawValue & (~UInt64(0) << UInt64(value))
        return masked == 0 ? nil : masked.trailingZeroBitCount
    }

    /// Members in ascending order.
    var values: [Int] {
        var result: [Int] = []
        var remaining = rawValue
        while remaining != 0 {
            result.append(remaining.trailingZeroBitCount)
            remaining &= remaining - 1
        }
        return result
    }
}
