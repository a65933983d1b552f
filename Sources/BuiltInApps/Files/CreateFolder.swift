import Foundation
import IntentKit

extension FilesApp {
    /// Creates a folder and any missing folders above it; a folder already there is fine.
    ///
    /// ```yaml
    /// - perform: Files.CreateFolder
    ///   with: { path: ~/backups/2026 }
    /// ```
    public struct CreateFolder: AppIntent {
        public static let title: LocalizedStringResource = "Create Folder"
        public static let description = IntentDescription("Creates a folder, and the folders above it that are missing.")

        @Parameter(title: "Path", requestValueDialog: "Which folder do you want to create?")
        public var path: String

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Create the folder \(\.$path)")
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<FileEntity> {
            let url = FilePath.resolve(path)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
                guard isFolder.boolValue else { throw FileError.notFolder(path: url.path) }
                return .result(value: try FileEntity(at: url))
            }
            var ancestor = url.deletingLastPathComponent()
            while ancestor.path != "/" && !FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isFolder) {
                ancestor.deleteLastPathComponent()
            }
            if !isFolder.boolValue && ancestor.path != "/" { throw FileError.notFolder(path: ancestor.path) }
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                throw FileError.from(error, operation: "create the folder", path: url.path)
            }
            return .result(value: try FileEntity(at: url))
        }
    }
}
