import Foundation
import IntentKit

extension FilesApp {
    /// Writes text (or a file's bytes, or a list or dictionary as JSON) to a file, atomically.
    ///
    /// The old file is replaced only once the new contents are safely on disk
    /// (``AtomicFileWriter``): a failed write leaves it as it was.
    ///
    /// ```yaml
    /// - perform: Files.WriteFile
    ///   with: { path: ~/log/today.txt, content: "${summary}\n", mode: append, createFolders: true }
    /// ```
    public struct WriteFile: AppIntent {
        public static let title: LocalizedStringResource = "Write File"
        public static let description = IntentDescription(
            "Writes text to a file, replacing it, adding to it, or only when it does not exist yet.")

        @Parameter(title: "Path", requestValueDialog: "Which file do you want to write?")
        public var path: String

        @Parameter(title: "Content", requestValueDialog: "What do you want to write?")
        public var content: IntentValue

        @Parameter(title: "Mode", default: .overwrite)
        public var mode: WriteMode

        @Parameter(title: "Create Folders", default: false)
        public var createFolders: Bool

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Write \(\.$content) to \(\.$path)") {
                \.$mode
                \.$createFolders
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<FileEntity> {
            let url = FilePath.resolve(path)
            try AtomicFileWriter.write(try Self.bytes(of: content), to: url, mode: mode, createFolders: createFolders)
            return .result(value: try FileEntity(at: url))
        }

        /// The bytes written for a value: text as UTF-8, a file's contents, lists and
        /// dictionaries as JSON, anything else as its text.
        static func bytes(of value: IntentValue) throws -> Data {
            switch value {
            case .string(let text): return Data(text.utf8)
            case .file(let file):
                try FileKind.requireOrdinary(file.fileURL.path, operation: "read")
                do {
                    return try file.data
                } catch {
                    throw FileError.from(error, operation: "read", path: file.fileURL.path)
                }
            case .list, .dictionary: return Data((value.jsonText + "\n").utf8)
            default: return Data(value.displayText.utf8)
            }
        }
    }
}
