import Foundation

/// How much longer some work takes on a large input than on a small one, measured so that a
/// machine whose cores other work keeps busy weighs on both sizes alike: the two are measured
/// by turns, `rounds` times each, and the fastest time of each size is kept (a load that comes
/// and goes slows some runs of both, and rarely the fastest of either).
///
/// A test of linear time gives four times the input and expects well under sixteen times the
/// time, which quadratic work takes:
///
/// ```swift
/// let growth = await GrowthRatio.measure(small: { load(20_000) }, large: { load(80_000) })
/// #expect(growth.ratio < 8, "\(growth)")
/// ```
public struct GrowthRatio: CustomStringConvertible, Sendable {
    /// The fastest run of the small input.
    public var small: Duration
    /// The fastest run of the large input.
    public var large: Duration

    /// `large / small`.
    public var ratio: Double { large / small }

    public var description: String { "small: \(small), large: \(large), ratio \(ratio)" }

    /// Measures both sizes by turns, on a thread of its own: seconds of work on a thread of
    /// Swift's cooperative pool (one per core) would hold back every task of the tests beside
    /// it.
    ///
    /// - Parameters:
    ///   - rounds: How many times each size runs (5).
    ///   - small: The work on the small input.
    ///   - large: The work on the large input.
    public static func measure(
        rounds: Int = 5, small: @escaping @Sendable () -> Void, large: @escaping @Sendable () -> Void
    ) async -> GrowthRatio {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                // What a timing test measures is wall time: this is the one clock it can read.
                let clock = ContinuousClock()
                var fastest = (small: Duration.seconds(Int64.max), large: Duration.seconds(Int64.max))
                for _ in 0..<rounds {
                    fastest.small = min(fastest.small, clock.measure(small))
                    fastest.large = min(fastest.large, clock.measure(large))
                }
                continuation.resume(returning: GrowthRatio(small: fastest.small, large: fastest.large))
            }
        }
    }
}
