import Foundation
import ShortcutsTestSupport
import Testing

@testable import TextEmbedding

@Suite("Multilingual models")
struct MultilingualModelTests {
    static let texts = ["the sea", "海の風", "ｶﾀｶﾅ\tthe wind surfing", "京都の紅葉, 嵐山.", "", "ZZZ ☃☃ fish①"]

    @Test(
        "A tiny generated model with a Unigram tokenizer and E5 prefixes embeds as the numpy reference does",
        .enabled(if: UnigramReferenceScript.isAvailable, UnigramReferenceScript.reason))
    func tinyModelMatchesReference() throws {
        let folder = try TemporaryFolder.make(prefix: "tiny-multilingual")
        defer { try? FileManager.default.removeItem(at: folder) }
        try TinyUnigramModel.tokenizerFile().write(to: folder.appendingPathComponent("tokenizer.json"))
        try JSONEncoder().encode(Self.texts).write(to: folder.appendingPathComponent("texts.json"))
        _ = try UnigramReferenceScript.run(["tiny-model", folder.path])
        let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: folder.appendingPathComponent("expected.json")))

        let embedder = try TransformerEmbedder(directory: folder, identifier: "tiny-multilingual", similarityFloor: 0.5)
        #expect(embedder.tokenizer is UnigramTokenizer)
        #expect(embedder.dimension == 32)
        for (text, ids) in zip(Self.texts, expected.ids) {
            #expect(embedder.tokenizer.encode(text, maxTokens: 64) == ids, "\(text.debugDescription)")
        }
        for (role, vectors) in [(EmbeddingRole.query, expected.query), (.document, expected.document)] {
            let embedded = try embedder.embed(Self.texts, role: role)
            for (index, (actual, reference)) in zip(embedded, vectors).enumerated() {
                let cosine = zip(actual, reference).reduce(0) { $0 + Double($1.0) * $1.1 }
                #expect(cosine >= 1 - 1e-5, "\(role) \(Self.texts[index].debugDescription): cosine \(cosine)")
            }
        }
        let query = try embedder.embed(["the sea"], role: .query)[0]
        let document = try embedder.embed(["the sea"], role: .document)[0]
        #expect(query != document, "queries and documents get different prefixes")
    }

    struct Expected: Decodable {
        let ids: [[Int32]]
        let query: [[Double]]
        let document: [[Double]]
    }
}
