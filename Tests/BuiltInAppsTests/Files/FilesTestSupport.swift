import Foundation
import IntentKit
import ShortcutsSystemTestSupport

@testable import BuiltInApps

/// Performs Files intents the way the engine does, and reads what they leave on disk.
struct FilesHarness {
    let folder: URL
    let performer = IntentPerformer(catalog: IntentCatalog(apps: [FilesApp.app]))

    init() throws {
        folder = try TemporaryFolder.make(prefix: "files-app")
    }

    /// A path inside the test's folder.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Performs an intent and returns its value.
    @discardableResult
    func perform(_ intent: String, _ arguments: [String: IntentValue]) async throws -> IntentValue {
        try await performer.perform("Files.\(intent)", arguments: arguments).value ?? .null
    }

    /// The message of the error an intent fails with.
    func failure(_ intent: String, _ arguments: [String: IntentValue]) async -> String {
        do {
            try await perform(intent, arguments)
            return "(no error)"
        } catch {
            return "\(error)"
        }
    }

    /// Writes a file directly.
    func make(_ name: String, _ text: String, modified: Date? = nil) throws {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        if let modified { try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path) }
    }

    /// Reads a file directly.
    func text(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
    }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    /// The names of the entries of a folder of the test's folder, sorted.
    func names(in name: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(name).path).sorted()
    }
}

extension IntentValue {
    /// The paths of a list of file entities.
    var paths: [String] { elements.paths }
}

extension [IntentValue] {
    /// The paths of file entities.
    var paths: [String] {
        compactMap { if case .entity(let entity) = $0 { entity.identifier } else { nil } }
    }
}
