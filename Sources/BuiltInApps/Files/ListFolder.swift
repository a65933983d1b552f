import Foundation
import IntentKit

extension FilesApp {
    /// Lists the files and folders in a folder, optionally those matching a glob pattern, and
    /// optionally in its subfolders too.
    ///
    /// The pattern is matched against each entry's name with `fnmatch(3)`: `*.pdf`,
    /// `report-202?.csv`, `[a-c]*`. As in the shell, a name starting with a dot is matched only
    /// by a pattern that starts with a dot; without a pattern every entry is listed.
    ///
    /// ```yaml
    /// - id: pdfs
    ///   perform: Files.ListFolder
    ///   with: { path: ~/Downloads, pattern: "*.pdf", recursive: true }
    /// ```
    public struct ListFolder: AppIntent {
        public static let title: LocalizedStringResource = "List Folder"
        public static let description = IntentDescription(
            "Lists the files in a folder, optionally those matching a pattern and those in its subfolders.")

        @Parameter(title: "Path", requestValueDialog: "Which folder do you want to list?")
        public var path: String

        @Parameter(title: "Pattern")
        public var pattern: String?

        @Parameter(title: "Recursive", default: false)
        public var recursive: Bool

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("List \(\.$path)") {
                \.$pattern
                \.$recursive
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<[FileEntity]> {
            let pattern = self.pattern
            let files = try FolderListing.entries(of: FilePath.resolve(path), recursive: recursive) { name in
                guard let pattern, !pattern.isEmpty else { return true }
                return fnmatch(pattern, name, FNM_PERIOD) == 0
            }
            return .result(value: files)
        }
    }
}
