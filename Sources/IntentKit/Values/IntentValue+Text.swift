import Foundation

extension IntentValue {
    /// The value as a person reads it: entities and enum cases by their titles, dates in
    /// ISO 8601, lists joined with commas.
    ///
    /// ```swift
    /// IntentValue.list([.int(1), .string("two")]).displayText   // "1, two"
    /// ```
    public var displayText: String {
        switch self {
        case .null: ""
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .double(let number): Self.format(number)
        case .string(let text): text
        case .date(let date): DateText.format(date)
        case .url(let url): url.isFileURL ? url.path : url.absoluteString
        case .file(let file): file.fileURL.path
        case .list(let elements): elements.map(\.displayText).joined(separator: ", ")
        case .dictionary(let entries):
            entries.keys.sorted().map { "\($0): \(entries[$0]?.displayText ?? "")" }.joined(separator: ", ")
        case .enumCase(let value): value.title
        case .entity(let value): value.title
        }
    }

    private static func format(_ number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int(number)) }
        return String(number)
    }

    /// The value's elements when it is a list, or the value alone.
    public var elements: [IntentValue] {
        if case .list(let elements) = self { return elements }
        if case .null = self { return [] }
        return [self]
    }

    /// Reads a property (entities and dictionaries), `count` (lists, text, dictionaries) or a
    /// list element by position.
    ///
    /// ```swift
    /// bookValue.member("author")       // .string("Delia Owens")
    /// ```
    /// - Parameter name: The property name.
    /// - Returns: The member's value, or `nil` when the value has no such member.
    public func member(_ name: String) -> IntentValue? {
        switch self {
        case .entity(let entity):
            if let value = entity.properties[name] { return value }
            switch name {
            case "id": return .string(entity.identifier)
            case "title": return .string(entity.title)
            case "subtitle": return entity.subtitle.map(IntentValue.string) ?? .null
            default: return nil
            }
        case .dictionary(let entries):
            if let value = entries[name] { return value }
            return name == "count" ? .int(entries.count) : nil
        case .list(let elements):
            switch name {
            case "count": return .int(elements.count)
            case "first": return elements.first ?? .null
            case "last": return elements.last ?? .null
            default: return nil
            }
        case .string(let text):
            return name == "count" ? .int(text.count) : nil
        case .enumCase(let value):
            switch name {
            case "rawValue": return .string(value.rawValue)
            case "title": return .string(value.title)
            default: return nil
            }
        case .file(let file):
            return file.property(name)
        case .null:
            return name == "count" ? .int(0) : nil
        default:
            return nil
        }
    }
}
