import Foundation

/// A Hugging Face `tokenizer.json`, parsed, with typed access to the parts tokenizers read and
/// located errors for the parts that are missing or wrong.
///
/// ```swift
/// let document = try TokenizerDocument(contentsOf: folder.appendingPathComponent("tokenizer.json"))
/// document.modelType   // "WordPiece"
/// ```
struct TokenizerDocument {
    /// The file's path, for error messages.
    let path: String
    /// The whole JSON object.
    let root: [String: Any]

    /// Reads and parses a file.
    ///
    /// - Throws: ``ModelLoadingError`` when the file is missing or is not a JSON object.
    init(contentsOf url: URL) throws {
        path = url.path
        let file = try MappedFile(path: path)
        let data = Data(file.bytes(at: 0, count: file.count))
        guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else {
            throw ModelLoadingError.invalid(path, "this is not a tokenizer.json: the file is not a JSON object")
        }
        self.root = root
    }

    /// The `model` object.
    var model: [String: Any] { root["model"] as? [String: Any] ?? [:] }

    /// The `model.type`: "WordPiece", "Unigram", "BPE"…, or nil when absent.
    var modelType: String? { model["type"] as? String }

    /// An object at a key path, such as `["normalizer"]`, or nil.
    func object(_ keys: String...) -> [String: Any]? {
        var current: Any? = root
        for key in keys { current = (current as? [String: Any])?[key] }
        return current as? [String: Any]
    }

    /// An error about this file.
    func invalid(_ problem: String) -> ModelLoadingError {
        .invalid(path, problem, help: "use the tokenizer.json that belongs with this model; \(ModelLoadingError.reinstall)")
    }

    /// The ids of the special tokens put before and after a single text, from the
    /// `post_processor` (`TemplateProcessing` or `BertProcessing`/`RobertaProcessing`).
    ///
    /// - Throws: ``ModelLoadingError`` when the post-processor is absent or of another kind.
    func specialTokens() throws -> (before: [Int32], after: [Int32]) {
        guard let processor = object("post_processor"), let type = processor["type"] as? String else {
            throw invalid("there is no post_processor naming the special tokens around a text")
        }
        switch type {
        case "TemplateProcessing":
            let table = processor["special_tokens"] as? [String: Any] ?? [:]
            var before: [Int32] = []
            var after: [Int32] = []
            var seenSequence = false
            for piece in processor["single"] as? [[String: Any]] ?? [] {
                if piece["Sequence"] != nil {
                    seenSequence = true
                    continue
                }
                guard let special = piece["SpecialToken"] as? [String: Any], let name = special["id"] as? String,
                    let ids = (table[name] as? [String: Any])?["ids"] as? [Int]
                else { throw invalid("the post_processor's template names a special token without ids") }
                if seenSequence { after += ids.map(Int32.init) } else { before += ids.map(Int32.init) }
            }
            return (before, after)
        case "BertProcessing", "RobertaProcessing":
            guard let cls = processor["cls"] as? [Any], let clsId = cls.last as? Int, let sep = processor["sep"] as? [Any],
                let sepId = sep.last as? Int
            else { throw invalid("the post_processor lacks the cls and sep tokens") }
            return ([Int32(clsId)], [Int32(sepId)])
        default:
            throw invalid("the post_processor '\(type)' is not supported (TemplateProcessing, BertProcessing and RobertaProcessing are)")
        }
    }
}
