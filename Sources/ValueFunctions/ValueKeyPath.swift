import Foundation
import IntentKit

/// A path into nested values: keys separated by dots and list positions in brackets,
/// `a.b[0].c`. A negative position counts from the end (`[-1]` is the last element); a key
/// with dots or brackets is written in quotes, `["file.name"]`.
///
/// ```swift
/// let path = try ValueKeyPath("books[-1].author")
/// try path.value(in: library)                         // the last book's author
/// try path.setting(.string("Jane Austen"), in: library)   // library with it replaced
/// ```
public struct ValueKeyPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Sendable, Hashable {
        /// A dictionary key or an entity property.
        case key(String)
        /// A list position; negative counts from the end.
        case index(Int)
    }

    /// The steps, in order.
    public var components: [Component]
    /// The path as written.
    public var description: String

    /// Reads a path.
    ///
    /// - Throws: ``ValueFunctionError/invalidKeyPath(path:reason:)`` naming the character that is wrong.
    public init(_ text: String) throws {
        description = text
        components = []
        var characters = text[...]
        var key = ""
        var column = 0
        func fail(_ reason: String) -> ValueFunctionError {
            .invalidKeyPath(path: text, reason: reason + " (at character \(column + 1))")
        }
        var expectsKey = true
        while let character = characters.popFirst() {
            defer { column += 1 }
            switch character {
            case ".":
                if key.isEmpty && expectsKey { throw fail("an empty key; write a name between the dots") }
                if !key.isEmpty { components.append(.key(key)) }
                key = ""
                expectsKey = true
            case "[":
                if !key.isEmpty { components.append(.key(key)) }
                key = ""
                guard let close = characters.firstIndex(of: "]") else { throw fail("'[' is not closed with ']'") }
                let inside = characters[..<close].trimmingCharacters(in: .whitespaces)
                let skipped = characters.distance(from: characters.startIndex, to: close) + 1
                characters = characters[characters.index(after: close)...]
                defer { column += skipped }
                if let position = Int(inside) {
                    components.append(.index(position))
                } else if inside.count >= 2, let quote = inside.first, quote == "\"" || quote == "'", inside.last == quote {
                    components.append(.key(String(inside.dropFirst().dropLast())))
                } else {
                    throw fail("'[\(inside)]' is neither a position such as [0] or [-1] nor a quoted key such as [\"name\"]")
                }
                expectsKey = false
                if let next = characters.first, next != ".", next != "[" { throw fail("expected '.' or '[' after ']', found '\(next)'") }
            case "]":
                throw fail("']' without '['")
            default:
                key.append(character)
                expectsKey = true
            }
        }
        if !key.isEmpty {
            components.append(.key(key))
        } else if text.last == "." {
            throw ValueFunctionError.invalidKeyPath(path: text, reason: "ends with '.'; write a key after it")
        }
        if components.isEmpty && !text.isEmpty { throw ValueFunctionError.invalidKeyPath(path: text, reason: "names no key or position") }
    }

    /// The text of the first `count` components, for errors.
    private func prefix(_ count: Int) -> String {
        var text = ""
        for component in components.prefix(count) {
            switch component {
            case .key(let key): text += (text.isEmpty ? "" : ".") + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text.isEmpty ? "the value" : "'\(text)'"
    }

    /// The value at the path.
    ///
    /// - Throws: ``ValueFunctionError/invalidKeyPath(path:reason:)`` for a key that is missing
    ///   (naming the keys there are), a position past the end, or a step into a value that has
    ///   no keys or positions.
    public func value(in root: IntentValue) throws -> IntentValue {
        var current = root
        for (offset, component) in components.enumerated() {
            current = try step(component, from: current, at: offset)
        }
        return current
    }

    private func step(_ component: Component, from value: IntentValue, at offset: Int) throws -> IntentValue {
        switch (component, value) {
        case (.index(let index), .list(let elements)):
            guard let position = Self.position(index, count: elements.count), position < elements.count else {
                throw ValueFunctionError.invalidKeyPath(
                    path: description, reason: "position \(index) is past the end of \(prefix(offset)), which has \(elements.count) element(s)")
            }
            return elements[position]
        case (.key(let key), .dictionary(let entries)):
            guard let found = entries[key] else {
                let keys = entries.keys.sorted().prefix(20).joined(separator: ", ")
                throw ValueFunctionError.invalidKeyPath(
                    path: description, reason: "\(prefix(offset)) has no key '\(key)'" + (keys.isEmpty ? " (it is empty)" : " (its keys: \(keys))"))
            }
            return found
        case (.key(let key), _):
            if let found = value.member(key) { return found }
            throw ValueFunctionError.invalidKeyPath(path: description, reason: "\(prefix(offset)) is \(value.kindName), which has no key '\(key)'")
        case (.index(let index), _):
            throw ValueFunctionError.invalidKeyPath(
                path: description, reason: "\(prefix(offset)) is \(value.kindName), not a list, so it has no position [\(index)]")
        }
    }

    /// A copy of the value with the value at the path replaced; missing keys are added, with
    /// dictionaries created on the way, and the position just past a list's end appends.
    ///
    /// - Throws: ``ValueFunctionError/invalidKeyPath(path:reason:)`` for a position further past
    ///   the end, or a step into a value that is neither a dictionary nor a list.
    public func setting(_ newValue: IntentValue, in root: IntentValue) throws -> IntentValue {
        try set(newValue, in: root, from: 0)
    }

    private func set(_ newValue: IntentValue, in value: IntentValue, from offset: Int) throws -> IntentValue {
        guard offset < components.count else { return newValue }
        switch (components[offset], value) {
        case (.key(let key), .dictionary(var entries)):
            entries[key] = try set(newValue, in: entries[key] ?? .null, from: offset + 1)
            return .dictionary(entries)
        case (.key(let key), .null):
            return .dictionary([key: try set(newValue, in: .null, from: offset + 1)])
        case (.index(let index), .list(var elements)):
            guard let position = Self.position(index, count: elements.count), position <= elements.count else {
                throw ValueFunctionError.invalidKeyPath(
                    path: description, reason: "position \(index) is past the end of \(prefix(offset)), which has \(elements.count) element(s)")
            }
            if position == elements.count {
                elements.append(try set(newValue, in: .null, from: offset + 1))
            } else {
                elements[position] = try set(newValue, in: elements[position], from: offset + 1)
            }
            return .list(elements)
        case (.index(let index), .null) where index == 0:
            return .list([try set(newValue, in: .null, from: offset + 1)])
        case (.key(let key), _):
            throw ValueFunctionError.invalidKeyPath(
                path: description, reason: "\(prefix(offset)) is \(value.kindName), not a dictionary, so the key '\(key)' cannot be set")
        case (.index(let index), _):
            throw ValueFunctionError.invalidKeyPath(
                path: description, reason: "\(prefix(offset)) is \(value.kindName), not a list, so the position [\(index)] cannot be set")
        }
    }

    /// A position from the start, for an index that may count from the end.
    static func position(_ index: Int, count: Int) -> Int? {
        let position = index < 0 ? count + index : index
        return position >= 0 ? position : nil
    }
}
