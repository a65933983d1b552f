import Foundation

/// BERT's WordPiece tokenizer, read from a Hugging Face `tokenizer.json` whose `model.type` is
/// `WordPiece`, giving the same ids as Hugging Face `tokenizers` (the tests compare them).
///
/// The steps are those of `BertNormalizer`, `BertPreTokenizer` and `WordPiece`: special tokens
/// written in the text (such as `[MASK]`) are kept whole; control characters are dropped; CJK
/// ideographs become words of their own; accents are stripped (NFD, then nonspacing marks
/// removed) and letters lowercased when the file says so; words are split at punctuation; each
/// word becomes its longest vocabulary pieces from the left (`##` marking continuations), or
/// `[UNK]` when one piece is missing or the word is longer than `max_input_chars_per_word`.
/// Encoding stops as soon as the token limit is reached, so a megabyte of text costs no more
/// than its first few hundred words.
///
/// Loading writes a binary copy of the vocabulary beside the file (`tokenizer.wordpiece-cache`,
/// when the folder is writable) and maps it on later loads instead of parsing the JSON.
///
/// ```swift
/// let tokenizer = try WordPieceTokenizer(contentsOf: folder.appendingPathComponent("tokenizer.json"))
/// tokenizer.encode("Crème brûlée", maxTokens: 256)   // [CLS] creme br ##ule ##e [SEP]
/// ```
public struct WordPieceTokenizer: SubwordTokenizer {
    /// How text is normalised before it is split, from the file's `BertNormalizer`.
    struct Normalization: Sendable, Equatable {
        var cleanText = true
        var handleChineseCharacters = true
        var stripAccents = true
        var lowercase = true
    }

    let vocabulary: VocabularyTable
    let normalization: Normalization
    let unknownId: Int32
    let continuationPrefix: [UInt8]
    let maxCharactersPerWord: Int
    let before: [Int32]
    let after: [Int32]
    /// Special tokens matched in the raw text, longest first.
    let addedTokens: [(scalars: [Unicode.Scalar], id: Int32)]

    /// Reads a tokenizer from a `tokenizer.json`, through its binary cache when that is current.
    ///
    /// - Parameter url: The `tokenizer.json` file.
    /// - Throws: ``ModelLoadingError`` when the file is missing, is not a WordPiece tokenizer, or
    ///   lacks a part the tokenizer needs.
    public init(contentsOf url: URL) throws {
        if let cached = Self(cacheBeside: url) {
            self = cached
            return
        }
        try self.init(document: TokenizerDocument(contentsOf: url))
        writeCache(beside: url)
    }

    /// Reads a tokenizer from a parsed `tokenizer.json`.
    init(document: TokenizerDocument) throws {
        let model = document.model
        guard document.modelType == "WordPiece" else {
            throw document.invalid("the tokenizer's model.type is '\(document.modelType ?? "missing")', not 'WordPiece'")
        }
        guard let vocab = model["vocab"] as? [String: Int], !vocab.isEmpty else {
            throw document.invalid("model.vocab is missing or empty")
        }
        let unknown = model["unk_token"] as? String ?? "[UNK]"
        guard let unknownId = vocab[unknown] else {
            throw document.invalid("the unknown token '\(unknown)' is not in model.vocab")
        }
        var normalization = Normalization(cleanText: false, handleChineseCharacters: false, stripAccents: false, lowercase: false)
        if let normalizer = document.object("normalizer") {
            guard normalizer["type"] as? String == "BertNormalizer" else {
                throw document.invalid("the normalizer '\(normalizer["type"] ?? "?")' is not supported with WordPiece (BertNormalizer is)")
            }
            normalization.cleanText = normalizer["clean_text"] as? Bool ?? true
            normalization.handleChineseCharacters = normalizer["handle_chinese_chars"] as? Bool ?? true
            normalization.lowercase = normalizer["lowercase"] as? Bool ?? true
            normalization.stripAccents = normalizer["strip_accents"] as? Bool ?? normalization.lowercase
        }
        if let preTokenizer = document.object("pre_tokenizer"), preTokenizer["type"] as? String != "BertPreTokenizer" {
            throw document.invalid("the pre_tokenizer '\(preTokenizer["type"] ?? "?")' is not supported with WordPiece (BertPreTokenizer is)")
        }
        let specials = try document.specialTokens()
        var added: [(scalars: [Unicode.Scalar], id: Int32)] = []
        for token in document.root["added_tokens"] as? [[String: Any]] ?? [] {
            guard let content = token["content"] as? String, let id = token["id"] as? Int, !content.isEmpty,
                token["normalized"] as? Bool == false
            else { continue }
            added.append((Array(content.unicodeScalars), Int32(id)))
        }
        self.init(
            vocabulary: VocabularyTable(tokens: vocab.map { ($0.key, Int32($0.value)) }), normalization: normalization,
            unknownId: Int32(unknownId), continuationPrefix: Array((model["continuing_subword_prefix"] as? String ?? "##").utf8),
            maxCharactersPerWord: model["max_input_chars_per_word"] as? Int ?? 100, before: specials.before, after: specials.after,
            addedTokens: added)
    }

    init(
        vocabulary: VocabularyTable, normalization: Normalization, unknownId: Int32, continuationPrefix: [UInt8],
        maxCharactersPerWord: Int, before: [Int32], after: [Int32], addedTokens: [(scalars: [Unicode.Scalar], id: Int32)]
    ) {
        self.vocabulary = vocabulary
        self.normalization = normalization
        self.unknownId = unknownId
        self.continuationPrefix = continuationPrefix
        self.maxCharactersPerWord = maxCharactersPerWord
        self.before = before
        self.after = after
        self.addedTokens = addedTokens.sorted { $0.scalars.count > $1.scalars.count }
    }

    public func encode(_ text: String, maxTokens: Int) -> [Int32] {
        let budget = max(0, maxTokens - before.count - after.count)
        var ids = before
        ids.reserveCapacity(min(budget, 512) + before.count + after.count)
        let limit = before.count + budget
        var chunk: [Unicode.Scalar] = []
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        scan: while index != scalars.endIndex {
            let scalar = scalars[index]
            if let added = addedToken(at: index, in: scalars) {
                appendWords(of: chunk, to: &ids, limit: limit)
                chunk.removeAll(keepingCapacity: true)
                if ids.count >= limit { break scan }
                ids.append(added.id)
                index = scalars.index(index, offsetBy: added.scalars.count)
                continue
            }
            if scalar.properties.isWhitespace {
                appendWords(of: chunk, to: &ids, limit: limit)
                chunk.removeAll(keepingCapacity: true)
                if ids.count >= limit { break scan }
            } else {
                chunk.append(scalar)
            }
            index = scalars.index(after: index)
        }
        appendWords(of: chunk, to: &ids, limit: limit)
        if ids.count > limit { ids.removeLast(ids.count - limit) }
        return ids + after
    }

    /// The special token written in the text at `index`, if any.
    private func addedToken(at index: String.UnicodeScalarView.Index, in scalars: String.UnicodeScalarView) -> (
        scalars: [Unicode.Scalar], id: Int32
    )? {
        let first = scalars[index]
        for token in addedTokens where token.scalars[0] == first {
            var position = index
            var matched = true
            for expected in token.scalars {
                guard position != scalars.endIndex, scalars[position] == expected else {
                    matched = false
                    break
                }
                position = scalars.index(after: position)
            }
            if matched { return token }
        }
        return nil
    }
}
