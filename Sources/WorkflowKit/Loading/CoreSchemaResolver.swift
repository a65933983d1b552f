import Foundation
import Yams

/// Resolves the tags of plain scalars by the YAML 1.2 core schema, plus timestamps.
///
/// Unlike YAML 1.1, `yes`, `no`, `on` and `off` are text, which is what a workflow author
/// writing `answer: no` means; numbers may not contain `_`; `=` and `<<` are text.
///
/// Yams is given a resolver without rules, so that it resolves nothing itself (its check for
/// duplicate keys would otherwise run every rule on every key); plain scalars are resolved
/// here, and only those whose first character can start a non-string.
enum CoreSchemaResolver {
    /// The resolver handed to Yams: every implicit tag stays implicit until ``tag(of:)``.
    static let parsingResolver = Resolver.basic

    private static let rules: [(tag: ScalarTag, pattern: NSRegularExpression)] = {
        let patterns: [(ScalarTag, String)] = [
            (.bool, "^(?:true|True|TRUE|false|False|FALSE)$"),
            (.int, "^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
            (.float, "^(?:[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"),
            (.null, "^(?:~|null|Null|NULL)$"),
            (
                .timestamp,
                "^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \\t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]*)?(?:[ \\t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$"
            )
        ]
        return patterns.compactMap { tag, pattern in
            (try? NSRegularExpression(pattern: pattern)).map { (tag, $0) }
        }
    }()

    /// The characters a plain scalar must start with to resolve to anything but a string.
    private static let nonStringStarts: Set<Unicode.Scalar> = [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+", "-", ".", "~", "t", "T", "f", "F", "n", "N"
    ]

    /// The tag of a scalar: its explicit standard tag, or the resolved one; `nil` for any other explicit tag.
    static func tag(of scalar: Node.Scalar) -> ScalarTag? {
        switch scalar.tag.rawValue {
        case "":
            return resolvedTag(ofPlain: scalar.string)
        case "!", Tag.Name.str.rawValue: return .string
        case Tag.Name.int.rawValue: return .int
        case Tag.Name.float.rawValue: return .float
        case Tag.Name.bool.rawValue: return .bool
        case Tag.Name.null.rawValue: return .null
        case Tag.Name.timestamp.rawValue: return .timestamp
        default: return nil
        }
    }

    private static func resolvedTag(ofPlain text: String) -> ScalarTag {
        guard let first = text.unicodeScalars.first else { return .null }
        guard nonStringStarts.contains(first) else { return .string }
        let range = NSRange(location: 0, length: text.utf16.count)
        for rule in rules where rule.pattern.firstMatch(in: text, options: [], range: range) != nil {
            return rule.tag
        }
        return .string
    }
}
