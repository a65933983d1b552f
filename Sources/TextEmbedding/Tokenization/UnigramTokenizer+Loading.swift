import Foundation

extension UnigramTokenizer {
    /// Reads a tokenizer from a Hugging Face `tokenizer.json` whose model is `Unigram`.
    ///
    /// The vocabulary is kept in a binary cache beside the file (`tokenizer.unigram-cache`), so
    /// that later loads map it instead of parsing the JSON of 250,000 pieces; the cache is made
    /// again when `tokenizer.json` changes.
    ///
    /// ```swift
    /// let tokenizer = try UnigramTokenizer(contentsOf: URL(fileURLWithPath: "models/multilingual-e5-small/tokenizer.json"))
    /// ```
    ///
    /// - Parameter url: The file.
    /// - Throws: ``ModelLoadingError`` naming the file and what is wrong in it.
    public init(contentsOf url: URL) throws {
        if let cached = Self(cacheBeside: url) {
            self = cached
            return
        }
        let document = try TokenizerDocument(contentsOf: url)
        try self.init(document: document)
        writeCache(of: document.root, beside: url)
    }

    /// Reads a tokenizer from a parsed `tokenizer.json`.
    ///
    /// - Throws: ``ModelLoadingError`` naming the file and the part that is missing or not supported.
    init(document: TokenizerDocument) throws {
        do {
            try self.init(json: document.root)
        } catch let problem as TokenizerFileProblem {
            throw document.invalid(problem.description)
        }
    }

    /// Reads a tokenizer from the decoded JSON of a `tokenizer.json`.
    init(json: [String: Any]) throws {
        guard let model = json["model"] as? [String: Any] else {
            throw TokenizerFileProblem("has no \"model\" object")
        }
        guard model["type"] as? String == "Unigram" else {
            throw TokenizerFileProblem("its model is '\(model["type"] as? String ?? "untyped")', not 'Unigram'")
        }
        guard let vocabulary = model["vocab"] as? [[Any]], !vocabulary.isEmpty else {
            throw TokenizerFileProblem("its Unigram model has no \"vocab\" list of [piece, score] pairs")
        }
        var pieces: [String] = []
        var scores: [Double] = []
        pieces.reserveCapacity(vocabulary.count)
        scores.reserveCapacity(vocabulary.count)
        for (index, entry) in vocabulary.enumerated() {
            guard entry.count == 2, let piece = entry[0] as? String, let score = (entry[1] as? NSNumber)?.doubleValue else {
                throw TokenizerFileProblem("vocab entry \(index) is not a [piece, score] pair")
            }
            pieces.append(piece)
            scores.append(score)
        }
        try self.init(json: json, pieces: PieceTable(pieces: pieces), scores: scores)
    }

    /// Reads the parts of a `tokenizer.json` around a vocabulary given apart.
    init(json: [String: Any], pieces: PieceTable, scores: [Double]) throws {
        let model = json["model"] as? [String: Any] ?? [:]
        guard let unknown = (model["unk_id"] as? NSNumber)?.intValue, scores.indices.contains(unknown) else {
            throw TokenizerFileProblem("its Unigram model has no valid \"unk_id\"")
        }
        if model["byte_fallback"] as? Bool == true {
            throw TokenizerFileProblem("its Unigram model uses byte_fallback, which this tokenizer does not support")
        }
        self.pieces = pieces
        self.scores = scores
        self.unknownID = Int32(unknown)
        self.unknownScore = (scores.min() ?? 0) - 10
        self.normalizer = try (json["normalizer"] as? [String: Any]).map(TextNormalizer.init(json:))
        self.metaspace = try Self.metaspace(from: json["pre_tokenizer"] as? [String: Any])
        self.specialPieces = (json["added_tokens"] as? [[String: Any]] ?? []).compactMap { token in
            guard token["special"] as? Bool == true, let content = token["content"] as? String, !content.isEmpty,
                let id = (token["id"] as? NSNumber)?.int32Value
            else { return nil }
            return SpecialPiece(
                scalars: Array(content.unicodeScalars), id: id, stripsLeft: token["lstrip"] as? Bool ?? false,
                stripsRight: token["rstrip"] as? Bool ?? false)
        }
        .sorted { $0.scalars.count > $1.scalars.count }
        (self.leadingIDs, self.trailingIDs) = try Self.specialIDs(from: json["post_processor"] as? [String: Any]) { token in
            Array(token.utf8).withUnsafeBufferPointer { pieces.index(of: $0, from: 0, to: $0.count).map(Int32.init) }
        }
    }

    private static func metaspace(from json: [String: Any]?) throws -> Metaspace {
        guard let json else { return Metaspace(prependsMarker: false, splits: false) }
        switch json["type"] as? String {
        case "Metaspace":
            var metaspace = Metaspace()
            if let replacement = json["replacement"] as? String, replacement.unicodeScalars.count == 1 {
                metaspace.replacement = replacement
            }
            if let scheme = json["prepend_scheme"] as? String {
                metaspace.prependsMarker = scheme != "never"
                metaspace.prependsToFirstOnly = scheme == "first"
            } else if let addsPrefix = json["add_prefix_space"] as? Bool {
                metaspace.prependsMarker = addsPrefix
            }
            metaspace.splits = json["split"] as? Bool ?? true
            return metaspace
        case "Sequence":
            let steps = json["pretokenizers"] as? [[String: Any]] ?? []
            let kinds = steps.map { $0["type"] as? String ?? "" }
            if kinds.contains("Metaspace"), kinds.allSatisfy({ $0 == "Metaspace" || $0 == "WhitespaceSplit" }),
                let step = steps.first(where: { $0["type"] as? String == "Metaspace" })
            {
                return try metaspace(from: step)
            }
            throw TokenizerFileProblem("the pre-tokenizer sequence \(kinds) is not supported by this tokenizer")
        case let other:
            throw TokenizerFileProblem("the pre-tokenizer type '\(other ?? "untyped")' is not supported by this tokenizer")
        }
    }

    private static func specialIDs(from json: [String: Any]?, identifierOf: (String) -> Int32?) throws -> ([Int32], [Int32]) {
        guard let json else { return ([], []) }
        switch json["type"] as? String {
        case "TemplateProcessing":
            let single = json["single"] as? [[String: Any]] ?? []
            let special = json["special_tokens"] as? [String: [String: Any]] ?? [:]
            var leading: [Int32] = []
            var trailing: [Int32] = []
            var seenSequence = false
            for item in single {
                if item["Sequence"] != nil {
                    seenSequence = true
                } else if let token = (item["SpecialToken"] as? [String: Any])?["id"] as? String {
                    let ids = (special[token]?["ids"] as? [NSNumber])?.map { Int32($0.intValue) } ?? identifierOf(token).map { [$0] }
                    guard let ids else { throw TokenizerFileProblem("the post-processor's special token '\(token)' has no id") }
                    if seenSequence { trailing += ids } else { leading += ids }
                }
            }
            return (leading, trailing)
        case "RobertaProcessing", "BertProcessing":
            guard let cls = json["cls"] as? [Any], let sep = json["sep"] as? [Any],
                let clsID = (cls.last as? NSNumber)?.intValue, let sepID = (sep.last as? NSNumber)?.intValue
            else {
                throw TokenizerFileProblem("the post-processor has no cls and sep tokens")
            }
            return ([Int32(clsID)], [Int32(sepID)])
        case let other:
            throw TokenizerFileProblem("the post-processor type '\(other ?? "untyped")' is not supported by this tokenizer")
        }
    }
}
