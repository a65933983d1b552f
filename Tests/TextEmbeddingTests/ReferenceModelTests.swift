import Foundation
import Testing
import TextEmbedding

@Suite("all-MiniLM-L6-v2 against the reference", .enabled(if: ReferenceModel.available, ReferenceModel.skipReason))
struct ReferenceModelTests {
    @Test("Token ids equal Hugging Face tokenizers' for every fixture text, truncation at 256 included")
    func tokenIds() throws {
        let embedder = try ReferenceModel.shared.get()
        #expect(embedder.maxTokens == ReferenceModel.fixture.maxTokens)
        for item in ReferenceModel.fixture.embedded + ReferenceModel.fixture.tokenized {
            let ids = embedder.tokenizer.encode(item.fullText, maxTokens: embedder.maxTokens)
            #expect(ids == item.ids, "\(item.name)")
        }
    }

    @Test("Vectors match the float64 numpy reference within 1e-3 cosine (about 1e-6 expected)")
    func vectors() throws {
        let embedder = try ReferenceModel.shared.get()
        let cases = ReferenceModel.fixture.embedded
        let vectors = try embedder.embed(cases.map(\.fullText), role: .document)
        #expect(vectors.count == cases.count)
        for (vector, item) in zip(vectors, cases) {
            #expect(vector.count == 384)
            let similarity = cosine(vector, item.vector ?? [])
            #expect(similarity >= 1 - 1e-3, "\(item.name): cosine \(similarity)")
            #expect(similarity >= 1 - 1e-5, "\(item.name): cosine \(similarity), further from the reference than measured")
            let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            #expect(abs(norm - 1) < 1e-5)
        }
    }

    @Test("A packed batch gives the vectors of one text at a time")
    func packedBatch() throws {
        let embedder = try ReferenceModel.shared.get()
        let texts = ["Morning run by the river", "", "嵐山の紅葉", "Sunny day 🌞 at the beach"]
        let packed = try embedder.embed(texts, role: .document)
        for (text, vector) in zip(texts, packed) {
            let alone = try embedder.embed([text], role: .document)[0]
            let largest = zip(alone, vector).map { abs($0 - $1) }.max() ?? 0
            #expect(largest <= 1e-6, "\(text): max difference \(largest)")
        }
    }

    @Test("'A man is eating food.' and 'A man is eating a piece of bread.' are 0.7553 apart")
    func foodAndBread() throws {
        let embedder = try ReferenceModel.shared.get()
        let vectors = try embedder.embed(["A man is eating food.", "A man is eating a piece of bread."], role: .query)
        let similarity = zip(vectors[0], vectors[1]).reduce(Float(0)) { $0 + $1.0 * $1.1 }
        #expect(abs(Double(similarity) - 0.7553) < 5e-4, "cosine \(similarity)")
        #expect(abs(Double(similarity) - ReferenceModel.fixture.foodBreadCosine) < 1e-5)
    }

    @Test("Loading again reads the vocabulary cache written beside tokenizer.json and tokenizes alike")
    func vocabularyCache() throws {
        let folder = try ReferenceModel.linkedCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try TransformerEmbedder(directory: folder, identifier: "m", similarityFloor: 0.3)
        let cache = folder.appendingPathComponent("tokenizer.wordpiece-cache")
        #expect(FileManager.default.fileExists(atPath: cache.path))
        let second = try TransformerEmbedder(directory: folder, identifier: "m", similarityFloor: 0.3)
        #expect(second.tokenizer is WordPieceTokenizer)
        for item in ReferenceModel.fixture.tokenized {
            #expect(second.tokenizer.encode(item.fullText, maxTokens: 256) == item.ids, "\(item.name)")
            #expect(first.tokenizer.encode(item.fullText, maxTokens: 256) == item.ids, "\(item.name)")
        }
    }
}
