/// A value together with the place in the workflow file where it was written.
///
/// Names that later stages check against something else — intent names, parameter
/// names, variable names — are kept located so that their errors can point at them.
///
/// ```swift
/// if let id = step.id {
///     print("step \(id.value) is declared at \(id.location)")
/// }
/// ```
public struct Located<Value> {
    /// The value.
    public var value: Value
    /// Where the value was written.
    public var location: SourceLocation

    /// Wraps a value with its location.
    ///
    /// ```swift
    /// let name = Located("total", at: SourceLocation(file: "a.yaml", line: 4, column: 10, length: 5))
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - location: Where it was written.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

extension Located: Sendable where Value: Sendable {}
extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
