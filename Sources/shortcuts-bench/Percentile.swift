/// Percentiles of sorted durations in seconds, shown in milliseconds, for the benchmarks' reports.
enum Percentile {
    /// The `p`-th percentile (0 to 1) of sorted seconds, in milliseconds; NaN for none.
    ///
    /// ```swift
    /// Percentile.milliseconds(0.99, of: latenesses.sorted())   // 24.3
    /// ```
    static func milliseconds(_ p: Double, of sorted: [Double]) -> Double {
        sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000
    }
}
