import Foundation
import IntentKit

extension FilesApp {
    /// Moves (or renames) a file or folder to a path or into a folder, across file systems too.
    ///
    /// On one file system it is a rename; across two, the item is copied, put in place, and
    /// only then removed from where it was. An existing file at the destination is an error
    /// unless `overwrite: true` (``FileTransfer`` describes the rules).
    ///
    /// ```yaml
    /// - perform: Files.Move
    ///   with: { source: ~/Downloads/report.pdf, destination: ~/Documents/ }
    /// ```
    public struct Move: AppIntent {
        public static let title: LocalizedStringResource = "Move File"
        public static let description = IntentDescription("Moves or renames a file or folder.")

        @Parameter(title: "Source", requestValueDialog: "Which file do you want to move?")
        public var source: String

        @Parameter(title: "Destination", requestValueDialog: "Where do you want to move it?")
        public var destination: String

        @Parameter(title: "Overwrite", default: false)
        public var overwrite: Bool

        @Parameter(title: "Create Folders", default: false)
        public var createFolders: Bool

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Move \(\.$source) to \(\.$destination)") {
                \.$overwrite
                \.$createFolders
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<FileEntity> {
            let from = FilePath.resolve(source)
            let target = try FileTransfer.target(for: from, destination: destination, overwrite: overwrite, createFolders: createFolders)
            try FileTransfer.move(from, to: target)
            return .result(value: try FileEntity(at: target))
        }
    }
}
