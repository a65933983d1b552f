import Foundation
import IntentKit

extension FilesApp {
    /// Reads a file: its text when it is UTF-8 text, else the file itself as a file value.
    ///
    /// ```yaml
    /// - id: notes
    ///   perform: Files.ReadFile
    ///   with: { path: ~/notes.txt }
    /// ```
    public struct ReadFile: AppIntent {
        public static let title: LocalizedStringResource = "Read File"
        public static let description = IntentDescription(
            "Reads a file and returns its text, or the file itself when it is not text.")

        @Parameter(title: "Path", requestValueDialog: "Which file do you want to read?")
        public var path: String

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Read \(\.$path)")
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<IntentValue> {
            let url = FilePath.resolve(path)
            return .result(value: try Self.contents(of: url))
        }

        /// The text of a file, or a file value when it holds a NUL byte or is not UTF-8.
        static func contents(of url: URL) throws -> IntentValue {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { throw FileError.notFound(path: url.path) }
            guard !isFolder.boolValue else { throw FileError.isFolder(path: url.path) }
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw FileError.from(error, operation: "read", path: url.path)
            }
            if !data.contains(0), let text = String(data: data, encoding: .utf8) { return .string(text) }
            return .file(IntentFile(fileURL: url))
        }
    }
}
