import Foundation
import IntentKit

extension FilesApp {
    /// Deletes a file or folder: to the trash, where a desktop's file manager can restore it
    /// (``Trash``), or for good with `permanently: true`.
    ///
    /// ```yaml
    /// - perform: Files.Delete
    ///   with: { path: ~/Downloads/old.zip }
    /// ```
    public struct Delete: AppIntent {
        public static let title: LocalizedStringResource = "Delete File"
        public static let description = IntentDescription("Moves a file or folder to the trash, or deletes it permanently.")

        @Parameter(title: "Path", requestValueDialog: "Which file do you want to delete?")
        public var path: String

        @Parameter(title: "Permanently", default: false)
        public var permanently: Bool

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Delete \(\.$path)") {
                \.$permanently
            }
        }

        public func perform() async throws -> some IntentResult {
            try Self.delete(FilePath.resolve(path), permanently: permanently, trash: .home())
            return .result()
        }

        /// Deletes an item to a trash, or for good.
        static func delete(_ url: URL, permanently: Bool, trash: Trash) throws {
            var info = stat()
            guard lstat(url.path, &info) == 0 else { throw FileError.system(errno, operation: "delete", path: url.path) }
            if case .special(let kind) = FileKind(mode: info.st_mode) { throw FileError.specialFile(path: url.path, kind: kind, operation: "delete") }
            guard permanently else {
                try trash.put(url)
                return
            }
            do {
                try FileManager.default.removeItem(at: url)
            } catch {
                throw FileError.from(error, operation: "delete", path: url.path)
            }
        }
    }
}
