import Foundation
import ShortcutsTestSupport
import Testing
import TextEmbedding

/// The real all-MiniLM-L6-v2 files, found through `SHORTCUTS_TEST_MODEL_DIR`, and the reference
/// fixture that `Scripts/embedding-reference.py` wrote from them.
enum ReferenceModel {
    /// The folder named by `SHORTCUTS_TEST_MODEL_DIR`, when it holds the model's files.
    static let directory: URL? = {
        guard let path = ProcessInfo.processInfo.environment["SHORTCUTS_TEST_MODEL_DIR"], !path.isEmpty else { return nil }
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        let present = ["config.json", "tokenizer.json", "model.safetensors"].allSatisfy {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
        }
        return present ? folder : nil
    }()

    /// Whether tests of the real model run: the model is there, or skipping is refused
    /// (`SHORTCUTS_TESTS_REQUIRE_ALL=1`), in which case they fail without it.
    static var available: Bool { directory != nil || SystemComponents.isRequired }

    /// The reason shown when they are skipped.
    static let skipReason: Comment = "needs all-MiniLM-L6-v2: set SHORTCUTS_TEST_MODEL_DIR to a folder with its files"

    /// A private copy of the model folder made of symbolic links, so that loading may write its
    /// tokenizer cache without touching the original folder.
    static func linkedCopy() throws -> URL {
        guard let directory else {
            throw ModelLoadingError(
                file: "SHORTCUTS_TEST_MODEL_DIR", problem: "no model folder is set", help: "set it to a folder with all-MiniLM-L6-v2")
        }
        let copy = try TemporaryFolder.make(prefix: "minilm")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !name.hasSuffix("-cache") {
            try FileManager.default.createSymbolicLink(
                at: copy.appendingPathComponent(name), withDestinationURL: directory.appendingPathComponent(name))
        }
        return copy
    }

    /// The embedder loaded once for the tests that share it.
    static let shared: Result<TransformerEmbedder, any Error> = Result {
        try TransformerEmbedder(directory: linkedCopy(), identifier: "all-MiniLM-L6-v2@1110a243", similarityFloor: 0.3)
    }

    /// One text of the fixture, with the ids and (for embedded texts) the vector of the reference.
    struct Case: Decodable {
        var name: String
        var text: String?
        var `repeat`: String?
        var bytes: Int?
        var ids: [Int32]
        var vector: [Double]?

        /// The text, expanded from its generator when it is too long to store.
        var fullText: String {
            if let text { return text }
            let unit = Array((`repeat` ?? "").utf8)
            var data = [UInt8]()
            data.reserveCapacity(bytes ?? 0)
            while data.count < (bytes ?? 0) { data += unit }
            var cut = Array(data.prefix(bytes ?? 0))
            while !cut.isEmpty, String(validating: cut, as: UTF8.self) == nil { cut.removeLast() }
            return String(decoding: cut, as: UTF8.self)
        }
    }

    struct Fixture: Decodable {
        var maxTokens: Int
        var foodBreadCosine: Double
        var embedded: [Case]
        var tokenized: [Case]
    }

    static let fixture: Fixture = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/minilm-reference.json")
        do {
            return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
        } catch {
            fatalError("unreadable fixture \(url.path): \(error)")
        }
    }()
}

/// The cosine of two vectors, in double precision.
func cosine(_ a: [Float], _ b: [Double]) -> Double {
    var dot = 0.0
    var normA = 0.0
    var normB = 0.0
    for (x, y) in zip(a, b) {
        dot += Double(x) * y
        normA += Double(x) * Double(x)
        normB += y * y
    }
    return dot / (normA * normB).squareRoot()
}
