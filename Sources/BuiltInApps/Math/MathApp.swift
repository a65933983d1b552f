import IntentKit

/// Math: arithmetic on two numbers, rounding, statistics of a list, random numbers.
///
/// ```yaml
/// - perform: Math.Calculate
///   with: { first: "${total}", operation: divide, second: "${count}" }
/// ```
public enum MathApp {
    /// The app, as the `shortcuts` binary installs it.
    public static let app = IntentApp(
        name: "Math", intents: [Calculate.self, Round.self, Statistics.self, RandomNumber.self], strings: BuiltInStrings.catalog(table: "Math"))
}
