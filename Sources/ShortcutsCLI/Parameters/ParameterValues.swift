import Foundation
import IntentKit

/// Reads `name=value` arguments into values (parameters of `perform`, `--input` of `run`).
///
/// - The value is everything after the first `=`, as text, converted later to the parameter's type.
/// - A name given several times gives a list, in order: `tags=cat tags=home` is `["cat", "home"]`.
/// - A value written as a JSON list is a list: `tags=["cat","home"]`.
/// - Commas are text: `tags=a,b` is the one value `a,b`.
///
/// ```swift
/// ParameterValues.parse(["tags=cat", "tags=home", "title=Emma"])
/// // ["tags": .list([.string("cat"), .string("home")]), "title": .string("Emma")]
/// ```
enum ParameterValues {
    static func parse(_ pairs: [String]) -> [String: IntentValue] {
        var order: [String] = []
        var given: [String: [IntentValue]] = [:]
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let text = parts.count > 1 ? String(parts[1]) : ""
            if given[name] == nil { order.append(name) }
            given[name, default: []].append(value(of: text))
        }
        var values: [String: IntentValue] = [:]
        for name in order {
            let list = given[name] ?? []
            values[name] = list.count == 1 ? list[0] : .list(list.flatMap { $0.isList ? $0.elements : [$0] })
        }
        return values
    }

    /// Text, or a list when the text is a JSON list.
    private static func value(of text: String) -> IntentValue {
        if text.hasPrefix("["), text.hasSuffix("]"), let list = try? IntentValue.fromJSON(text), list.isList { return list }
        return .string(text)
    }

    /// The input values of `--input-path`: a file holding a JSON object, or `-` for standard input.
    ///
    /// ```swift
    /// var inputs = try ParameterValues.read(inputPath: "answers.json")
    /// inputs.merge(ParameterValues.parse(input)) { $1 }
    /// ```
    ///
    /// - Parameter inputPath: The file, or `-`.
    /// - Returns: The object's values by input name.
    /// - Throws: ``CommandLineError`` naming the file when it cannot be read or holds no JSON object.
    static func read(inputPath: String) throws -> [String: IntentValue] {
        let hint = "give a file holding a JSON object such as {\"title\": \"Emma\"}, or - to read it from standard input"
        let text: String
        if inputPath == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            try FileProblem.checkReadableFile(inputPath, role: "--input-path", hint: hint)
            do {
                text = try String(contentsOfFile: inputPath, encoding: .utf8)
            } catch {
                throw CommandLineError(FileProblem(role: "--input-path", path: inputPath, reason: "it is not UTF-8 text", hint: hint))
            }
        }
        let shownPath = inputPath == "-" ? "standard input" : inputPath
        guard let value = try? IntentValue.fromJSON(text) else {
            throw CommandLineError("--input-path \(shownPath) is not valid JSON", help: [hint])
        }
        guard case .dictionary(let values) = value else {
            throw CommandLineError(
                "--input-path \(shownPath) holds JSON of another kind (\(value.kindName)), not an object of input values", help: [hint])
        }
        return values
    }
}

extension IntentValue {
    var isList: Bool {
        if case .list = self { return true }
        return false
    }
}
