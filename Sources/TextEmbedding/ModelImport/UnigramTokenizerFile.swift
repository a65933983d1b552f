import Foundation

/// Writes a Hugging Face `tokenizer.json` for an XLM-R style SentencePiece Unigram vocabulary:
/// a `Precompiled` normaliser compiled from a per-character map, runs of spaces collapsed,
/// `Metaspace` pre-tokenisation and `<s> $A </s>` post-processing.
///
/// ```swift
/// let json = UnigramTokenizerFile(pieces: pieces, scores: scores, unknownID: 3, beginID: 0, endID: 2,
///                                 normalization: [("\t", " ")]).json()
/// ```
struct UnigramTokenizerFile {
    var pieces: [String]
    var scores: [Float]
    var unknownID: Int
    var beginID: Int
    var endID: Int
    /// Further special pieces, such as `<pad>`, and `<mask>` (which takes the spaces before it, as in XLM-R).
    var otherSpecialIDs: [Int] = []
    /// Each source sequence and what it becomes.
    var normalization: [(source: String, replacement: String)]

    /// The file's text.
    func json() throws -> Data {
        let charsMap = PrecompiledCharsMap.compile(normalization)
        let begin = pieces[beginID]
        let end = pieces[endID]
        let object: [String: Any] = [
            "version": "1.0",
            "truncation": NSNull(),
            "padding": NSNull(),
            "added_tokens": ([beginID, endID, unknownID] + otherSpecialIDs).sorted().map { id -> [String: Any] in
                [
                    "id": id, "content": pieces[id], "single_word": false, "lstrip": pieces[id] == "<mask>", "rstrip": false,
                    "normalized": false, "special": true
                ]
            },
            "normalizer": [
                "type": "Sequence",
                "normalizers": [
                    ["type": "Precompiled", "precompiled_charsmap": Data(charsMap.blob).base64EncodedString()],
                    ["type": "Replace", "pattern": ["Regex": " {2,}"], "content": " "]
                ]
            ],
            "pre_tokenizer": ["type": "Metaspace", "replacement": "\u{2581}", "prepend_scheme": "always", "split": true],
            "post_processor": [
                "type": "TemplateProcessing",
                "single": [
                    ["SpecialToken": ["id": begin, "type_id": 0]], ["Sequence": ["id": "A", "type_id": 0]],
                    ["SpecialToken": ["id": end, "type_id": 0]]
                ],
                "pair": [
                    ["SpecialToken": ["id": begin, "type_id": 0]], ["Sequence": ["id": "A", "type_id": 0]],
                    ["SpecialToken": ["id": end, "type_id": 0]], ["SpecialToken": ["id": end, "type_id": 0]],
                    ["Sequence": ["id": "B", "type_id": 0]], ["SpecialToken": ["id": end, "type_id": 0]]
                ],
                "special_tokens": [
                    begin: ["id": begin, "ids": [beginID], "tokens": [begin]],
                    end: ["id": end, "ids": [endID], "tokens": [end]]
                ]
            ],
            "decoder": ["type": "Metaspace", "replacement": "\u{2581}", "prepend_scheme": "always", "split": true],
            "model": [
                "type": "Unigram",
                "unk_id": unknownID,
                "byte_fallback": false,
                "vocab": zip(pieces, scores).map { [$0.0, Double($0.1)] as [Any] }
            ]
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}
