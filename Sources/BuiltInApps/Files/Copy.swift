import Foundation
import IntentKit

extension FilesApp {
    /// Copies a file or folder (with everything in it) to a path or into a folder.
    ///
    /// An existing file at the destination is an error unless `overwrite: true`
    /// (``FileTransfer`` describes the rules).
    ///
    /// ```yaml
    /// - perform: Files.Copy
    ///   with: { source: ~/notes.txt, destination: ~/backups/, overwrite: true }
    /// ```
    public struct Copy: AppIntent {
        public static let title: LocalizedStringResource = "Copy File"
        public static let description = IntentDescription("Copies a file or folder to another path or into a folder.")

        @Parameter(title: "Source", requestValueDialog: "Which file do you want to copy?")
        public var source: String

        @Parameter(title: "Destination", requestValueDialog: "Where do you want to copy it?")
        public var destination: String

        @Parameter(title: "Overwrite", default: false)
        public var overwrite: Bool

        @Parameter(title: "Create Folders", default: false)
        public var createFolders: Bool

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Copy \(\.$source) to \(\.$destination)") {
                \.$overwrite
                \.$createFolders
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<FileEntity> {
            let from = FilePath.resolve(source)
            let target = try FileTransfer.target(for: from, destination: destination, overwrite: overwrite, createFolders: createFolders)
            try FileTransfer.copy(from, to: target)
            return .result(value: try FileEntity(at: target))
        }
    }
}
