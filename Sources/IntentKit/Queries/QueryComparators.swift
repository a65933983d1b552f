import Foundation

/// The comparators of conditions, by the names YAML and metadata use: the ten of property
/// queries, and the two presence tests of workflow conditions.
///
/// It is the one vocabulary of comparisons: entity queries declare which of the ten they
/// support, workflows' `where:` and `if:` conditions are written with all twelve, and
/// ``When`` summaries compare with six of them.
///
/// ```swift
/// ComparatorKind(rawValue: "greaterThan")?.evaluate(.int(3), [.int(2)])   // true
/// ComparatorKind.hasValue.evaluate(.list([]), [])                         // false
/// ```
public enum ComparatorKind: String, Sendable, Hashable, CaseIterable, Codable {
    case equalTo, notEqualTo, contains, hasPrefix, hasSuffix
    case lessThan, lessThanOrEqualTo, greaterThan, greaterThanOrEqualTo, isBetween
    /// The subject has a value (not null, not an empty list); written `hasValue: true`.
    case hasValue
    /// The subject has no value (null or an empty list); written `hasNoValue: true`.
    case hasNoValue

    /// Whether the comparator takes two values (a lower and an upper bound).
    public var takesRange: Bool { self == .isBetween }

    /// Whether the comparator compares with a value; `false` for the presence tests, which
    /// entity queries never declare (they are checked in memory).
    public var takesOperand: Bool { self != .hasValue && self != .hasNoValue }

    /// Whether an in-memory value satisfies the comparison, by ``ValueComparison``'s rules.
    ///
    /// ```swift
    /// ComparatorKind.greaterThan.evaluate(.int(3), [.int(2)])   // true
    /// ```
    /// - Parameters:
    ///   - value: The value compared (a property's value).
    ///   - operands: One operand, or two for `isBetween` (inclusive bounds).
    /// - Returns: Whether the comparison holds; comparisons with no value are false, but
    ///   `notEqualTo`, which holds.
    public func evaluate(_ value: IntentValue, _ operands: [IntentValue]) -> Bool {
        let isAbsent: Bool
        switch value {
        case .null: isAbsent = true
        case .list(let elements): isAbsent = elements.isEmpty
        default: isAbsent = false
        }
        if self == .hasValue { return !isAbsent }
        if self == .hasNoValue { return isAbsent }
        guard let operand = operands.first else { return false }
        if value.isNull { return self == .notEqualTo && !operand.isNull }
        func ordered(_ accepted: Set<ComparisonResult>) -> Bool {
            guard let result = ValueComparison.order(value, operand) else { return false }
            return accepted.contains(result)
        }
        switch self {
        case .equalTo: return ValueComparison.equal(value, operand)
        case .notEqualTo: return !ValueComparison.equal(value, operand)
        case .contains: return ValueComparison.contains(value, operand)
        case .hasPrefix: return ValueComparison.hasPrefix(value, operand)
        case .hasSuffix: return ValueComparison.hasSuffix(value, operand)
        case .lessThan: return ordered([.orderedAscending])
        case .lessThanOrEqualTo: return ordered([.orderedAscending, .orderedSame])
        case .greaterThan: return ordered([.orderedDescending])
        case .greaterThanOrEqualTo: return ordered([.orderedDescending, .orderedSame])
        case .isBetween:
            guard operands.count == 2 else { return false }
            let lower = ValueComparison.order(value, operands[0])
            let upper = ValueComparison.order(value, operands[1])
            return (lower == .orderedDescending || lower == .orderedSame)
                && (upper == .orderedAscending || upper == .orderedSame)
        case .hasValue, .hasNoValue:
            return false
        }
    }
}

/// A comparator of a queryable property, after building: its kind, and how it turns values
/// into your comparator mapping type.
@_documentation(visibility: internal)
public struct AnyQueryComparator<Mapping>: @unchecked Sendable {
    /// The comparator's kind.
    public let kind: ComparatorKind
    let makeMapping: ([IntentValue]) throws -> Mapping

    /// Converts the operands to the property's type and calls the comparator's closure.
    public func mapping(for operands: [IntentValue]) throws -> Mapping {
        try makeMapping(operands)
    }
}

/// Declares the comparators of a property: `EqualToComparator { condition(equals: $0) }`.
public protocol QueryComparator {
    associatedtype Value: IntentValueConvertible
    associatedtype Mapping
    @_documentation(visibility: internal)
    var erased: AnyQueryComparator<Mapping> { get }
}

private func singleOperand<Value: IntentValueConvertible, Mapping>(
    _ kind: ComparatorKind, _ transform: @escaping (Value) -> Mapping
) -> AnyQueryComparator<Mapping> {
    AnyQueryComparator(kind: kind) { operands in
        guard let operand = operands.first else {
            throw ValueConversionError(value: .null, expectedType: Value.intentValueType, hint: "\(kind.rawValue) needs a value")
        }
        return transform(try Value(intentValue: operand))
    }
}

/// Compares a property for equality.
public struct EqualToComparator<Value: IntentValueConvertible, Mapping>: QueryComparator {
    public let erased: AnyQueryComparator<Mapping>
    /// - Parameter mappingTransform: Makes your condition from the compared value.
    public init(mappingTransform: @escaping (Value) -> Mapping) { erased = singleOperand(.equalTo, mappingTransform) }
}

/// Compares a property for inequality.
public struct NotEqualToComparator<Value: IntentValueConvertible, Mapping>: QueryComparator {
    public let erased: AnyQueryComparator<Mapping>
    /// - Parameter mappingTransform: Makes your condition from the compared value.
    public init(mappingTransform: @escaping (Value) -> Mapping) { erased = singleOperand(.notEqualTo, mappingTransform) }
}

/// Tests whether a property contains a value.
public struct ContainsComparator<Value: IntentValueConvertible, Mapping>: QueryComparator {
    public let erased: AnyQueryComparator<Mapping>
    /// - Parameter mappingTransform: Makes your condition from the compared value.
    public init(mappingTransform: @escaping (Value) -> Mapping) { erased = singleOperand(.contains, mappingTransform) }
}

/// Tests whether a property starts with a value.
public struct HasPrefixComparator<Value: IntentValueConvertible, Mapping>: QueryComparator {
    public let erased: AnyQueryComparator<Mapping>
    /// - Parameter mappingTransform: Makes your condition from the compared value.
    public init(mappingTransform: @escaping (Value) -> Mapping) { erased = singleOperand(.hasPrefix, mappingTransform) }
}

/// Tests whether a property ends with a value.
public struct HasSuffixComparator<Value: IntentValueConvertible, Mapping>: QueryComparator {
    public let erased: AnyQueryComparator<Mapping>
    /// - Parameter mappingTransform: Makes your condition from the compared value.
    public init(mappingTransform: @escaping (Value) -> Mapping) { erased = singleOperand(.hasSuffix, mappingTransform) }
}

/// Tests whether a property is less than a value.
public struct LessThanComparator<Value: IntentValueConvertible, Mapping>: QueryComparator {
    public let erased: AnyQueryComparator<Mapping>
    /// - Parameter mappingTransform: Makes your condition from the compared value.
    public init(mappingTransform: @escaping (Value) -> Mapping) { erased = singleOperand(.lessThan, mappingTransform) }
}

/// Tests whether a property is less than or equal to a value.
public struct LessThanOrEqualToComparator<Value: IntentValueConvertible, Mapping>: QueryComparator {
    public let erased: AnyQueryComparator<Mapping>
    /// - Parameter mappingTransform: Makes your condition from the compared value.
    public init(mappingTransform: @escaping (Value) -> Mapping) { erased = singleOperand(.lessThanOrEqualTo, mappingTransform) }
}

/// Tests whether a property is greater than a value.
public struct GreaterThanComparator<Value: IntentValueConvertible, Mapping>: QueryComparator {
    public let erased: AnyQueryComparator<Mapping>
    /// - Parameter mappingTransform: Makes your condition from the compared value.
    public init(mappingTransform: @escaping (Value) -> Mapping) { erased = singleOperand(.greaterThan, mappingTransform) }
}

/// Tests whether a property is greater than or equal to a value.
public struct GreaterThanOrEqualToComparator<Value: IntentValueConvertible, Mapping>: QueryComparator {
    public let erased: AnyQueryComparator<Mapping>
    /// - Parameter mappingTransform: Makes your condition from the compared value.
    public init(mappingTransform: @escaping (Value) -> Mapping) { erased = singleOperand(.greaterThanOrEqualTo, mappingTransform) }
}

/// Tests whether a property lies between two values, both included.
public struct IsBetweenComparator<Value: IntentValueConvertible, Mapping>: QueryComparator {
    public let erased: AnyQueryComparator<Mapping>
    /// - Parameter mappingTransform: Makes your condition from the lower and upper bounds.
    public init(mappingTransform: @escaping (Value, Value) -> Mapping) {
        erased = AnyQueryComparator(kind: .isBetween) { operands in
            guard operands.count == 2 else {
                throw ValueConversionError(
                    value: .list(operands), expectedType: .list(Value.intentValueType),
                    hint: "isBetween needs a lower and an upper bound")
            }
            return mappingTransform(try Value(intentValue: operands[0]), try Value(intentValue: operands[1]))
        }
    }
}
