import Yams

/// The entries of a YAML mapping with their keys as located text, duplicates removed.
struct MappingEntries {
    struct Entry {
        let key: Located<String>
        let value: Node
    }

    /// The entries in the order written, keeping the first of duplicate keys.
    let all: [Entry]
    /// Where the mapping starts.
    let location: SourceLocation

    subscript(key: String) -> Entry? {
        all.first { $0.key.value == key }
    }

    /// The value of a key, or `nil` when the key is absent or its value is empty (`~`, `null` or nothing).
    func nonNull(_ key: String) -> Node? {
        guard let value = self[key]?.value, !WorkflowConverter.isNull(value) else { return nil }
        return value
    }
}
