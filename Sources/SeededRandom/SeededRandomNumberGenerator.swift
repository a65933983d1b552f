/// A reproducible random number generator (SplitMix64), for the fuzz tests and benchmarks:
/// the same seed gives the same values on every machine, so a failing run can be replayed.
///
/// ```swift
/// var generator = SeededRandomNumberGenerator(seed: 42)
/// let value = Int.random(in: 0..<10, using: &generator)
/// ```
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose values follow from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
