import IntentKit

// Literal values keep the expectations of these tests short: "Emma", ["a", "b"], ["key": "value"].

extension IntentValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension IntentValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: IntentValue...) { self = .list(elements) }
}

extension IntentValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, IntentValue)...) { self = .dictionary(Dictionary(uniqueKeysWithValues: elements)) }
}
