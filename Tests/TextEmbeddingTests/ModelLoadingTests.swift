import Foundation
import Testing
import TextEmbedding

@Suite("Loading a model folder")
struct ModelLoadingTests {
    /// Loads a folder and returns the error's description.
    private func loadingError(_ folder: URL) -> String? {
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try TransformerEmbedder(directory: folder, identifier: "tiny", similarityFloor: 0.3)
            return nil
        } catch let error as ModelLoadingError {
            return error.description
        } catch {
            return "not a ModelLoadingError: \(error)"
        }
    }

    @Test("A tiny model embeds texts into unit vectors, the same packed or one at a time, empty and long texts included")
    func tinyModel() throws {
        let folder = try TinyModel.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let embedder = try TransformerEmbedder(directory: folder, identifier: "tiny@1", similarityFloor: 0.25)
        #expect(embedder.dimension == 8 && embedder.identifier == "tiny@1" && embedder.similarityFloor == 0.25)
        let texts = ["Morning runs by the river.", "", "sailing, surfing!", String(repeating: "the sea ", count: 200), "Café 京"]
        let packed = try embedder.embed(texts, role: .document)
        #expect(packed.count == texts.count)
        for (text, vector) in zip(texts, packed) {
            #expect(vector.count == 8)
            #expect(abs(vector.reduce(0) { $0 + $1 * $1 } - 1) < 1e-5)
            let alone = try embedder.embed([text], role: .document)[0]
            #expect(zip(alone, vector).allSatisfy { abs($0 - $1) <= 1e-6 })
        }
        #expect(packed[0] != packed[2])
        #expect(try embedder.embed([], role: .query).isEmpty)
    }

    @Test("The tokenizer keeps special tokens written in the text, splits punctuation, strips accents and truncates")
    func tinyTokenizer() throws {
        let folder = try TinyModel.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tokenizer = try TransformerEmbedder(directory: folder, identifier: "tiny", similarityFloor: 0).tokenizer
        #expect(tokenizer.encode("Morning runs, [MASK] Café!", maxTokens: 16) == [2, 10, 6, 8, 15, 4, 22, 16, 3])
        #expect(tokenizer.encode("sailing surfs xyz", maxTokens: 16) == [2, 18, 9, 19, 8, 1, 3])
        #expect(tokenizer.encode("the river the river", maxTokens: 4) == [2, 5, 7, 3])
        #expect(tokenizer.encode("", maxTokens: 16) == [2, 3])
        #expect(tokenizer.encode(String(repeating: "a", count: 13), maxTokens: 16) == [2, 1, 3])
    }

    @Test("A missing file is named with how to fix it")
    func missingFile() throws {
        let folder = try TinyModel.folder()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("model.safetensors"))
        let message = try #require(loadingError(folder))
        #expect(message.contains("model.safetensors: error: the file does not exist"))
        #expect(message.contains("help: "))
    }

    @Test("A truncated safetensors file is refused, whether the cut is in the header or in the data")
    func truncated() throws {
        let bytes = TinyModel().safetensors()
        for length in [0, 5, 100, bytes.count - 1] {
            let message = try #require(loadingError(TinyModel.folder(replacing: ["model.safetensors": bytes.prefix(length)])))
            #expect(message.contains("truncated"), "\(length) bytes: \(message)")
        }
    }

    @Test("A header that lies about a tensor's size, or a tensor of another dtype or shape, is refused")
    func headerLies() throws {
        let model = TinyModel()
        let lies = model.safetensors(shape: { $0 == "embeddings.LayerNorm.bias" ? [9] : $1 })
        let message = try #require(loadingError(TinyModel.folder(replacing: ["model.safetensors": lies])))
        #expect(message.contains("the header lies about tensor 'embeddings.LayerNorm.bias'"), "\(message)")

        let integers = model.safetensors(dtype: { $0.hasSuffix("query.weight") ? "I32" : "F32" })
        let dtypeMessage = try #require(loadingError(TinyModel.folder(replacing: ["model.safetensors": integers])))
        #expect(dtypeMessage.contains("tensor 'encoder.layer.0.attention.self.query.weight' is I32"), "\(dtypeMessage)")

        let reshaped = model.safetensors(shape: { $0.hasSuffix("intermediate.dense.weight") ? [8, 16] : $1 })
        let shapeMessage = try #require(loadingError(TinyModel.folder(replacing: ["model.safetensors": reshaped])))
        #expect(shapeMessage.contains("has shape [8, 16] but config.json implies [16, 8]"), "\(shapeMessage)")

        let garbage = Data([16, 0, 0, 0, 0, 0, 0, 0]) + Data("not json at all!".utf8)
        let garbageMessage = try #require(loadingError(TinyModel.folder(replacing: ["model.safetensors": garbage])))
        #expect(garbageMessage.contains("not a safetensors file"), "\(garbageMessage)")
    }

    @Test("A tokenizer of another model or of a type not supported yet is refused at load")
    func wrongTokenizer() throws {
        let bigger = TinyModel.tokenizer(vocabulary: TinyModel.vocabulary + (0..<40).map { "extra\($0)" })
        let message = try #require(loadingError(TinyModel.folder(replacing: ["tokenizer.json": Data(bigger.utf8)])))
        #expect(message.contains("belongs to another model"), "\(message)")

        let bpe = TinyModel.tokenizer(modelType: "BPE")
        let bpeMessage = try #require(loadingError(TinyModel.folder(replacing: ["tokenizer.json": Data(bpe.utf8)])))
        #expect(bpeMessage.contains("model.type 'BPE' is not supported"), "\(bpeMessage)")

        let notJSON = try #require(loadingError(TinyModel.folder(replacing: ["tokenizer.json": Data("<html>".utf8)])))
        #expect(notJSON.contains("tokenizer.json: error: this is not a tokenizer.json"), "\(notJSON)")
    }

    @Test("A config.json of another architecture is refused")
    func wrongConfiguration() throws {
        let config = TinyModel.config().replacingOccurrences(of: "\"bert\"", with: "\"gpt2\"")
        let message = try #require(loadingError(TinyModel.folder(replacing: ["config.json": Data(config.utf8)])))
        #expect(message.contains("config.json: error: model_type 'gpt2' is not supported"), "\(message)")
    }

    @Test("The vocabulary cache is used when current, and ignored when tokenizer.json changed or the cache is damaged")
    func vocabularyCache() throws {
        let folder = try TinyModel.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("tokenizer.wordpiece-cache")
        let first = try TransformerEmbedder(directory: folder, identifier: "tiny", similarityFloor: 0)
        #expect(FileManager.default.fileExists(atPath: cache.path))
        #expect(first.tokenizer.encode("sea", maxTokens: 8) == [2, 17, 3])

        var swapped = TinyModel.vocabulary
        swapped.swapAt(17, 18)
        try Data(TinyModel.tokenizer(vocabulary: swapped).utf8).write(to: folder.appendingPathComponent("tokenizer.json"))
        let changed = try TransformerEmbedder(directory: folder, identifier: "tiny", similarityFloor: 0)
        #expect(changed.tokenizer.encode("sea", maxTokens: 8) == [2, 18, 3])

        var damaged = try Data(contentsOf: cache)
        damaged.replaceSubrange(damaged.count - 40..<damaged.count, with: [UInt8](repeating: 0xFF, count: 40))
        try damaged.write(to: cache)
        let recovered = try TransformerEmbedder(directory: folder, identifier: "tiny", similarityFloor: 0)
        #expect(recovered.tokenizer.encode("sea sail", maxTokens: 8) == [2, 18, 17, 3])
    }

    @Test("Query and document prefixes come from config_sentence_transformers.json's prompts")
    func prompts() throws {
        let prompts = Data(#"{"prompts": {"query": "sea ", "passage": "river "}}"#.utf8)
        let folder = try TinyModel.folder(replacing: ["config_sentence_transformers.json": prompts])
        let plainFolder = try TinyModel.folder()
        defer { for url in [folder, plainFolder] { try? FileManager.default.removeItem(at: url) } }
        let prefixed = try TransformerEmbedder(directory: folder, identifier: "tiny", similarityFloor: 0)
        let plain = try TransformerEmbedder(directory: plainFolder, identifier: "tiny", similarityFloor: 0)
        let pairs = [
            (try prefixed.embed(["run"], role: .query)[0], try plain.embed(["sea run"], role: .query)[0]),
            (try prefixed.embed(["run"], role: .document)[0], try plain.embed(["river run"], role: .document)[0])
        ]
        for (withPrompt, written) in pairs { #expect(zip(withPrompt, written).allSatisfy { abs($0 - $1) < 1e-6 }) }
        #expect(pairs[0].0 != pairs[1].0)
    }
}
