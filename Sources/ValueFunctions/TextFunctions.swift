import Foundation
import IntentKit

/// Functions on text: case, trimming, splitting, joining, searching and formatting.
///
/// ```swift
/// TextFunctions.changeCase("where the crawdads sing", to: .title)   // "Where The Crawdads Sing"
/// try TextFunctions.split("a b  c", by: .spaces)                    // ["a", "b", "c"]
/// ```
public enum TextFunctions {
    /// How ``changeCase(_:to:)`` writes letters.
    public enum Case: String, Sendable, CaseIterable {
        /// `HELLO WORLD`
        case upper
        /// `hello world`
        case lower
        /// `Hello World`: every word capitalized.
        case title
        /// `Hello world`: the first letter capitalized, the rest lowercase.
        case sentence
        /// `helloWorld`
        case camel
        /// `hello_world`
        case snake
        /// `hello-world`
        case kebab
    }

    /// Writes text in another case.
    ///
    /// ```swift
    /// TextFunctions.changeCase("Hello World", to: .snake)   // "hello_world"
    /// ```
    public static func changeCase(_ text: String, to style: Case) -> String {
        switch style {
        case .upper: return text.uppercased()
        case .lower: return text.lowercased()
        case .title: return text.capitalized
        case .sentence:
            let lower = text.lowercased()
            guard let first = lower.firstIndex(where: \.isLetter) else { return lower }
            return lower[..<first] + lower[first].uppercased() + lower[lower.index(after: first)...]
        case .camel:
            let words = Self.words(text)
            guard let head = words.first else { return "" }
            return head.lowercased() + words.dropFirst().map(\.capitalized).joined()
        case .snake: return words(text).map { $0.lowercased() }.joined(separator: "_")
        case .kebab: return words(text).map { $0.lowercased() }.joined(separator: "-")
        }
    }

    /// The words of text for camel, snake and kebab case: runs of letters and digits, split
    /// where a lowercase letter is followed by an uppercase one (`bookTitle` → `book`, `Title`).
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber {
                if character.isUppercase, let last = current.last, last.isLowercase || last.isNumber {
                    words.append(current)
                    current = ""
                }
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Removes characters from both ends of text: whitespace and newlines, or the given characters.
    ///
    /// ```swift
    /// TextFunctions.trim("  hi \n")            // "hi"
    /// TextFunctions.trim("--hi--", characters: "-")   // "hi"
    /// ```
    public static func trim(_ text: String, characters: String? = nil) -> String {
        guard let characters, !characters.isEmpty else { return text.trimmingCharacters(in: .whitespacesAndNewlines) }
        let set = Set(characters)
        var slice = Substring(text)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }

    /// Where ``split(_:by:omittingEmpty:)`` cuts text.
    public enum Separator: Sendable, Equatable {
        /// At every line break (`\n`, `\r\n`); a final line break adds no empty line.
        case newlines
        /// At runs of whitespace and line breaks; no empty pieces.
        case spaces
        /// At every occurrence of this text.
        case text(String)
        /// At every match of this regular expression.
        case regex(String)
    }

    /// Splits text into pieces.
    ///
    /// ```swift
    /// try TextFunctions.split("a,b,,c", by: .text(","))                   // ["a", "b", "", "c"]
    /// try TextFunctions.split("a1b22c", by: .regex("[0-9]+"))             // ["a", "b", "c"]
    /// ```
    /// - Throws: ``ValueFunctionError/invalidRegex(argument:pattern:reason:)`` for a bad pattern,
    ///   ``ValueFunctionError/invalidArgument(argument:reason:)`` for an empty separator.
    public static func split(_ text: String, by separator: Separator, omittingEmpty: Bool = false) throws -> [String] {
        var pieces: [String]
        switch separator {
        case .newlines:
            pieces = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
            if text.last?.isNewline == true { pieces.removeLast() }
            if text.isEmpty { pieces = [] }
        case .spaces:
            return text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).map(String.init)
        case .text(let separator):
            guard !separator.isEmpty else {
                throw ValueFunctionError.invalidArgument(
                    argument: "separator", reason: "an empty separator splits nothing; give the text to split at")
            }
            pieces = text.components(separatedBy: separator)
        case .regex(let pattern):
            let regex = try RegexFunctions.compile(pattern, argument: "separator")
            pieces = text.split(separator: regex, omittingEmptySubsequences: false).map(String.init)
        }
        return omittingEmpty ? pieces.filter { !$0.isEmpty } : pieces
    }

    /// Joins pieces of text with a separator.
    ///
    /// ```swift
    /// TextFunctions.join([.string("a"), .int(2)], separator: ", ")   // "a, 2"
    /// ```
    public static func join(_ values: [IntentValue], separator: String) -> String {
        values.map(\.displayText).joined(separator: separator)
    }

    /// Replaces every occurrence of text, exactly or ignoring case (for patterns, see
    /// ``RegexFunctions/replace(in:pattern:with:ignoringCase:)``).
    ///
    /// ```swift
    /// try TextFunctions.replace("Cats and CATS", "cats", with: "dogs", ignoringCase: true)   // "dogs and dogs"
    /// ```
    /// - Throws: ``ValueFunctionError/invalidArgument(argument:reason:)`` when the text to find is empty.
    public static func replace(_ text: String, _ target: String, with replacement: String, ignoringCase: Bool = false) throws -> String {
        guard !target.isEmpty else { throw ValueFunctionError.invalidArgument(argument: "find", reason: "the text to find is empty") }
        return text.replacingOccurrences(of: target, with: replacement, options: ignoringCase ? [.caseInsensitive] : [])
    }

    /// Whether text contains, starts or ends with other text, exactly or ignoring case.
    ///
    /// ```swift
    /// TextFunctions.contains("Hello", "ELL", ignoringCase: true)   // true
    /// ```
    public static func contains(_ text: String, _ part: String, ignoringCase: Bool = false) -> Bool {
        ignoringCase ? text.range(of: part, options: .caseInsensitive) != nil : text.contains(part)
    }

    /// Whether text starts with a prefix.
    public static func startsWith(_ text: String, _ prefix: String, ignoringCase: Bool = false) -> Bool {
        ignoringCase ? text.range(of: prefix, options: [.caseInsensitive, .anchored]) != nil : text.hasPrefix(prefix)
    }

    /// Whether text ends with a suffix.
    public static func endsWith(_ text: String, _ suffix: String, ignoringCase: Bool = false) -> Bool {
        ignoringCase ? text.range(of: suffix, options: [.caseInsensitive, .anchored, .backwards]) != nil : text.hasSuffix(suffix)
    }

    /// The number of characters (as people count them) in text.
    public static func length(_ text: String) -> Int { text.count }

    /// Fills `{0}`, `{1}`… (or `{}` in turn) in a template with the values' text; `{{` and `}}`
    /// write braces.
    ///
    /// ```swift
    /// try TextFunctions.format("{0} by {1}", ["Emma", "Jane Austen"])   // "Emma by Jane Austen"
    /// ```
    /// - Throws: ``ValueFunctionError/invalidArgument(argument:reason:)`` when a placeholder
    ///   names a value that was not given or is not closed.
    public static func format(_ template: String, _ values: [String]) throws -> String {
        var result = ""
        var next = 0
        var index = template.startIndex
        while index < template.endIndex {
            let character = template[index]
            let following = template.index(after: index)
            if character == "{", following < template.endIndex, template[following] == "{" {
                result.append("{")
                index = template.index(after: following)
            } else if character == "}", following < template.endIndex, template[following] == "}" {
                result.append("}")
                index = template.index(after: following)
            } else if character == "{" {
                guard let close = template[following...].firstIndex(of: "}") else {
                    throw ValueFunctionError.invalidArgument(argument: "template", reason: "'{' is not closed; write '{{' for a brace")
                }
                let inside = template[following..<close]
                let position = inside.isEmpty ? next : Int(inside)
                guard let position, values.indices.contains(position) else {
                    throw ValueFunctionError.invalidArgument(
                        argument: "template", reason: "'{\(inside)}' names no value; \(values.count) value(s) given, numbered from 0")
                }
                result += values[position]
                next = position + 1
                index = template.index(after: close)
            } else {
                result.append(character)
                index = following
            }
        }
        return result
    }
}
