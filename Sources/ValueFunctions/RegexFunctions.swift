import Foundation
import IntentKit

/// Regular expressions (Swift's syntax, which is ICU's and Perl's): compiling with a clear
/// error, matching with groups, replacing with `$1` and `${name}` templates.
///
/// ```swift
/// let matches = try RegexFunctions.matches(of: #"(\w+)@(\w+)"#, in: "ann@home, bob@work")
/// // [{text: ann@home, groups: [ann, home], named: {}}, {text: bob@work, ...}]
/// try RegexFunctions.replace(in: "2024-05-01", pattern: #"(\d+)-(\d+)-(\d+)"#, with: "$3/$2/$1")   // "01/05/2024"
/// ```
public enum RegexFunctions {
    /// Compiles a pattern.
    ///
    /// - Parameters:
    ///   - pattern: The regular expression.
    ///   - argument: The argument's name, for the error.
    ///   - ignoringCase: Whether letters match either case.
    /// - Throws: ``ValueFunctionError/invalidRegex(argument:pattern:reason:)`` with the compiler's reason.
    public static func compile(_ pattern: String, argument: String = "pattern", ignoringCase: Bool = false) throws -> Regex<AnyRegexOutput> {
        do {
            let regex = try Regex(pattern)
            return ignoringCase ? regex.ignoresCase() : regex
        } catch {
            throw ValueFunctionError.invalidRegex(argument: argument, pattern: pattern, reason: reason(for: error))
        }
    }

    /// Why a pattern does not compile, or `nil` when it does: what a validator says about a literal.
    ///
    /// ```swift
    /// RegexFunctions.problem(in: "(a")   // "expected ')'"
    /// ```
    public static func problem(in pattern: String) -> String? {
        do {
            _ = try Regex(pattern)
            return nil
        } catch {
            return reason(for: error)
        }
    }

    private static func reason(for error: any Error) -> String {
        let text = String(describing: error)
        return text.isEmpty ? "it does not compile" : text
    }

    /// Every match of a pattern in text, each a dictionary `{text, groups, named}`: the matched
    /// text, the numbered groups (`null` for a group that took no part) and the named groups.
    ///
    /// - Throws: ``ValueFunctionError/invalidRegex(argument:pattern:reason:)``.
    public static func matches(of pattern: String, in text: String, ignoringCase: Bool = false) throws -> [IntentValue] {
        let regex = try compile(pattern, ignoringCase: ignoringCase)
        return text.matches(of: regex).map { match in
            var groups: [IntentValue] = []
            var named: [String: IntentValue] = [:]
            for index in match.output.indices.dropFirst() {
                let group = match.output[index]
                let value = group.substring.map { IntentValue.string(String($0)) } ?? .null
                groups.append(value)
                if let name = group.name { named[name] = value }
            }
            return .dictionary([
                "text": .string(String(match.output[0].substring ?? "")), "groups": .list(groups), "named": .dictionary(named)
            ])
        }
    }

    /// Replaces every match of a pattern. In the replacement, `$0` is the whole match, `$1`…`$99`
    /// a numbered group, `${name}` a named group and `\$` a dollar sign.
    ///
    /// - Throws: ``ValueFunctionError/invalidRegex(argument:pattern:reason:)``, or
    ///   ``ValueFunctionError/invalidArgument(argument:reason:)`` when the replacement names a
    ///   group the pattern does not have.
    public static func replace(in text: String, pattern: String, with template: String, ignoringCase: Bool = false) throws -> String {
        let regex = try compile(pattern, ignoringCase: ignoringCase)
        var result = ""
        var position = text.startIndex
        for match in text.matches(of: regex) {
            result += text[position..<match.range.lowerBound]
            result += try expand(template, with: match.output)
            position = match.range.upperBound
        }
        result += text[position...]
        return result
    }

    private static func expand(_ template: String, with output: AnyRegexOutput) throws -> String {
        var result = ""
        var characters = template[...]
        while let character = characters.popFirst() {
            if character == "\\", let next = characters.first, next == "$" || next == "\\" {
                result.append(next)
                characters.removeFirst()
            } else if character == "$", characters.first == "{" {
                guard let close = characters.firstIndex(of: "}") else {
                    throw ValueFunctionError.invalidArgument(argument: "replacement", reason: "'${' is not closed; write '\\$' for a dollar sign")
                }
                let name = String(characters[characters.index(after: characters.startIndex)..<close])
                characters = characters[characters.index(after: close)...]
                if let number = Int(name) {
                    result += try group(number, in: output)
                } else {
                    guard let group = output[name] else {
                        throw ValueFunctionError.invalidArgument(argument: "replacement", reason: "the pattern has no group named '\(name)'")
                    }
                    result += group.substring.map(String.init) ?? ""
                }
            } else if character == "$", let digit = characters.first, digit.isASCII, digit.isNumber {
                var digits = String(characters.removeFirst())
                if let second = characters.first, second.isASCII, second.isNumber, Int(digits + String(second))! < output.count {
                    digits.append(characters.removeFirst())
                }
                result += try group(Int(digits)!, in: output)
            } else {
                result.append(character)
            }
        }
        return result
    }

    private static func group(_ number: Int, in output: AnyRegexOutput) throws -> String {
        guard number < output.count else {
            throw ValueFunctionError.invalidArgument(
                argument: "replacement", reason: "'$\(number)' names a group the pattern does not have (it has \(output.count - 1))")
        }
        return output[number].substring.map(String.init) ?? ""
    }
}
