import Foundation
import IntentKit

/// The installed extensions: `extensions.json` under `$SHORTCUTS_HOME`, with each extension's
/// name, program and the metadata it declared, cached with the program's fingerprint.
///
/// ```json
/// {"formatVersion": 1, "extensions": [{"name": "Greeter", "executable": "/usr/local/bin/greeter",
///   "fingerprint": {"size": 1234, "modified": 1767225600000000000, "inode": 42},
///   "checked": "2026-01-01T00:00:00Z", "metadata": {"formatVersion": 1, "apps": […]}}]}
/// ```
///
/// Writes are atomic (a temporary file renamed over the old one).
///
/// ```swift
/// let registry = ExtensionRegistry(home: ShortcutsHome.directory())
/// for entry in try registry.load() { print(entry.name, entry.executable) }
/// ```
public struct ExtensionRegistry: Sendable {
    /// One installed extension.
    public struct Entry: Codable, Sendable, Equatable {
        /// Its name (`Greeter`).
        public var name: String
        /// Its program's absolute path.
        public var executable: String
        /// The program's fingerprint when the metadata was read.
        public var fingerprint: ExecutableFingerprint
        /// When the metadata was last read from the program.
        public var checked: Date
        /// What the program declared in `initialize`.
        public var metadata: AppMetadata
        /// Why the program, as it is now, could not be read (`nil` when it could).
        public var failure: Failure?

        /// A program that changed and failed to answer, with the fingerprint it failed with.
        public struct Failure: Codable, Sendable, Equatable {
            /// The program's fingerprint when it failed.
            public var fingerprint: ExecutableFingerprint
            /// What went wrong.
            public var reason: String

            /// Creates a failure.
            public init(fingerprint: ExecutableFingerprint, reason: String) {
                self.fingerprint = fingerprint
                self.reason = reason
            }
        }

        /// Creates an entry.
        public init(name: String, executable: String, fingerprint: ExecutableFingerprint, checked: Date, metadata: AppMetadata) {
            self.name = name
            self.executable = executable
            self.fingerprint = fingerprint
            self.checked = checked
            self.metadata = metadata
        }
    }

    private struct File: Codable {
        var formatVersion = 1
        var extensions: [Entry]
    }

    /// The registry file.
    public let file: URL

    /// The registry in a data folder.
    public init(home: URL) {
        file = home.appendingPathComponent("extensions.json")
    }

    /// The installed extensions, in the order they were added (none when the file is missing).
    ///
    /// - Throws: ``ExtensionRegistryError/invalidFile(path:line:column:reason:)``, located.
    public func load() throws -> [Entry] {
        guard let data = FileManager.default.contents(atPath: file.path) else { return [] }
        do {
            _ = try JSONSerialization.jsonObject(with: data)
        } catch {
            let (line, column, reason) = Self.locate(error, in: data)
            throw ExtensionRegistryError.invalidFile(path: file.path, line: line, column: column, reason: reason)
        }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(File.self, from: data).extensions
        } catch let error as DecodingError {
            throw ExtensionRegistryError.invalidFile(path: file.path, line: nil, column: nil, reason: Self.describe(error))
        }
    }

    /// Replaces the installed extensions, atomically.
    ///
    /// - Throws: ``ExtensionRegistryError/cannotWrite(path:reason:)``.
    public func save(_ entries: [Entry]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let data = try encoder.encode(File(extensions: entries)) + Data("\n".utf8)
            try data.write(to: file, options: .atomic)
        } catch {
            throw ExtensionRegistryError.cannotWrite(path: file.path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Finds an entry by name, or fails with the installed names and a did-you-mean.
    public func entry(named name: String, in entries: [Entry]) throws -> Entry {
        if let entry = entries.first(where: { $0.name == name }) { return entry }
        let names = entries.map(\.name)
        let suggestion = names.min { Self.distance($0.lowercased(), name.lowercased()) < Self.distance($1.lowercased(), name.lowercased()) }
            .flatMap { Self.distance($0.lowercased(), name.lowercased()) <= max(2, name.count / 3) ? $0 : nil }
        throw ExtensionRegistryError.unknownExtension(name: name, installed: names, suggestion: suggestion)
    }

    // MARK: Errors

    private static func locate(_ error: any Error, in data: Data) -> (Int?, Int?, String) {
        let nsError = error as NSError
        let detail = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        if let match = detail.firstMatch(of: /line (\d+), column (\d+)/) {
            let reason = detail.replacing(#/ around line \d+, column \d+\.?/#, with: "")
            return (Int(match.1), Int(match.2), reason)
        }
        if let match = detail.firstMatch(of: /character (\d+)/), let offset = Int(match.1) {
            let prefix = data.prefix(offset)
            let line = prefix.filter { $0 == 0x0A }.count + 1
            let column = offset - (prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            return (line, column, detail.replacing(#/ around character \d+\.?/#, with: ""))
        }
        return (nil, nil, detail)
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = path(context.codingPath)
            return "\(at.isEmpty ? "the top level" : at) has no '\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func distance(_ first: String, _ second: String) -> Int {
        let first = Array(first)
        let second = Array(second)
        var previous = Array(0...second.count)
        for (row, left) in first.enumerated() {
            var current = [row + 1]
            for (column, right) in second.enumerated() {
                current.append(min(previous[column + 1] + 1, current[column] + 1, previous[column] + (left == right ? 0 : 1)))
            }
            previous = current
        }
        return previous[second.count]
    }
}
