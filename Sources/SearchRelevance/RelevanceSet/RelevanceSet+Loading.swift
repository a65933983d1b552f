import Foundation

extension RelevanceSet {
    /// Reads `items.json` and `queries.json` from a folder.
    ///
    /// ```swift
    /// let set = try RelevanceSet(contentsOf: URL(fileURLWithPath: "Benchmarks/Relevance"))
    /// ```
    ///
    /// - Parameter directory: The folder holding the two files.
    /// - Throws: ``RelevanceSetError`` naming the file that is missing or malformed.
    public init(contentsOf directory: URL) throws {
        self.init(
            items: try Self.decode([RelevanceItem].self, from: directory.appendingPathComponent("items.json")),
            queries: try Self.decode([RelevanceQuery].self, from: directory.appendingPathComponent("queries.json")))
    }

    private static func decode<Value: Decodable>(_ type: Value.Type, from file: URL) throws -> Value {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw RelevanceSetError(file: file.path, problem: "cannot be read", help: "pass the folder that holds items.json and queries.json")
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw RelevanceSetError(file: file.path, problem: "is not valid JSON: \(Self.describe(context))", help: "fix the JSON syntax")
        } catch let DecodingError.keyNotFound(key, context) {
            throw RelevanceSetError(
                file: file.path, problem: "lacks '\(key.stringValue)' at \(Self.describe(context))",
                help: "every entry needs the fields Benchmarks/Relevance/README.md lists")
        } catch let DecodingError.typeMismatch(_, context) {
            throw RelevanceSetError(
                file: file.path, problem: "has a value of the wrong type at \(Self.describe(context))",
                help: "see the format in Benchmarks/Relevance/README.md")
        } catch {
            throw RelevanceSetError(file: file.path, problem: "cannot be decoded: \(error)", help: "see the format in Benchmarks/Relevance/README.md")
        }
    }

    /// `[12].judgements.j-run` from a coding path.
    private static func describe(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
        return path.isEmpty ? context.debugDescription : path
    }
}

/// A relevance set file that cannot be read, and how to fix it.
///
/// ```
/// Benchmarks/Relevance/queries.json: error: lacks 'text' at [3]
/// help: every entry needs the fields Benchmarks/Relevance/README.md lists
/// ```
public struct RelevanceSetError: Error, CustomStringConvertible, Equatable {
    /// The file.
    public var file: String
    /// What is wrong.
    public var problem: String
    /// How to fix it.
    public var help: String

    public var description: String { "\(file): error: \(problem)\nhelp: \(help)" }
}
