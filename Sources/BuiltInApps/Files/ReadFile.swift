import Foundation
import IntentKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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

        /// The most a read takes into memory: 64 MiB.
        static let sizeLimit = 64 * 1_048_576

        /// The text of a file, or a file value when it holds a NUL byte or is not UTF-8.
        ///
        /// - Throws: ``FilesApp/FileError`` when nothing is there, it is a folder or a special
        ///   file, or it is larger than ``sizeLimit``.
        static func contents(of url: URL) throws -> IntentValue {
            let path = url.path
            switch FileKind.at(path) {
            case nil: throw FileError.notFound(path: path)
            case .folder: throw FileError.isFolder(path: path)
            case .special(let kind): throw FileError.specialFile(path: path, kind: kind, operation: "read")
            case .regular: break
            }
            let data = try read(path, limit: sizeLimit)
            if !data.contains(0), let text = String(data: data, encoding: .utf8) { return .string(text) }
            return .file(IntentFile(fileURL: url))
        }

        /// The bytes of a regular file, read up to `limit` (a file that grows past it while
        /// being read is refused too).
        static func read(_ path: String, limit: Int) throws -> Data {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw FileError.system(errno, operation: "read", path: path) }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw FileError.system(errno, operation: "read", path: path) }
            // Checked again on the open file: the path may have been replaced since it was examined.
            if case .special(let kind) = FileKind(mode: info.st_mode) {
                throw FileError.specialFile(path: path, kind: kind, operation: "read")
            }
            let help = "read it in parts with Shell.RunCommand (head, split) or pass its path to the program that needs it"
            guard Int(info.st_size) <= limit else { throw FileError.tooLarge(path: path, size: Int(info.st_size), limit: limit, help: help) }
            var data = Data(capacity: Int(info.st_size))
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { throw FileError.system(errno, operation: "read", path: path) }
                if count == 0 { return data }
                guard data.count + count <= limit else {
                    throw FileError.tooLarge(path: path, size: data.count + count, limit: limit, help: help)
                }
                data.append(contentsOf: buffer[0..<count])
            }
        }

        private static func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
            #if canImport(Glibc)
                Glibc.read(descriptor, bytes, count)
            #else
                Musl.read(descriptor, bytes, count)
            #endif
        }
    }
}
