/// The YAML type a scalar resolved to, following the YAML 1.2 core schema plus timestamps.
///
/// Only `true`/`false` (in any of their usual capitalisations) are booleans, so `yes`, `no`,
/// `on` and `off` stay strings. Quoted scalars are always strings. An explicit standard tag
/// such as `!!str 42` is honoured.
///
/// ```swift
/// switch literal.tag {
/// case .int: print("an integer")
/// case .string: print("text")
/// default: break
/// }
/// ```
public enum ScalarTag: String, Sendable, Hashable, CaseIterable {
    /// `~`, `null` or an empty value.
    case null
    /// `true` or `false`.
    case bool
    /// A decimal, octal (`0o17`) or hexadecimal (`0x1F`) integer.
    case int
    /// A floating-point number, `.inf` or `.nan`.
    case float
    /// Text.
    case string = "str"
    /// A date such as `1900-01-01` or a date and time such as `2024-05-01T09:30:00Z`.
    case timestamp
}
