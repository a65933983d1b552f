import Foundation
import IntentKit

extension FilesApp {
    /// A file or folder on disk, identified by its absolute path.
    ///
    /// Workflows find files with `find: Files.FileEntity` (see ``FileQuery``) and read their
    /// properties: `${file.name}`, `${file.size}`, `${file.modified}`. As text, a file is its
    /// path, so `path: ${file}` hands it to another file action.
    ///
    /// ```swift
    /// let entity = try FilesApp.FileEntity(at: URL(fileURLWithPath: "/etc/hostname"))
    /// entity.contentType   // "application/octet-stream"
    /// ```
    public struct FileEntity: AppEntity, Identifiable, Sendable {
        /// The absolute path.
        public var id: String

        /// The name, with its extension.
        @Property(title: "Name")
        public var name: String

        /// The extension, without its dot (empty when there is none).
        @Property(title: "Extension")
        public var `extension`: String

        /// The absolute path of the folder it is in.
        @Property(title: "Folder")
        public var folder: String

        /// The size in bytes (of a folder: its entry, not its contents).
        @Property(title: "Size")
        public var size: Int

        /// When its contents last changed.
        @Property(title: "Modified")
        public var modified: Date

        /// When it was created, where the file system records it.
        @Property(title: "Created")
        public var created: Date?

        /// Whether it is a folder.
        @Property(title: "Is Folder")
        public var isDirectory: Bool

        /// Its media type, from its extension (``ContentType``); `inode/directory` for folders.
        @Property(title: "Content Type")
        public var contentType: String

        /// The absolute path.
        public var path: String { id }

        /// The file's URL.
        public var url: URL { URL(fileURLWithPath: id) }

        public var displayRepresentation: DisplayRepresentation {
            DisplayRepresentation(title: "\(id)")
        }

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "File"
        public static let defaultQuery = FileQuery()

        public init(id: String) {
            self.id = id
        }

        /// The file or folder at a URL, with its properties read from the file system.
        ///
        /// - Parameter url: A file URL (made absolute and standardized).
        /// - Throws: ``FileError`` when nothing is there or it cannot be examined.
        public init(at url: URL) throws {
            let standardized = url.standardizedFileURL
            let path = standardized.path
            var info = stat()
            if stat(path, &info) != 0 && lstat(path, &info) != 0 {
                throw FileError.system(errno, operation: "examine", path: path)
            }
            self.init(id: path)
            let isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
            name = standardized.lastPathComponent
            self.extension = isDirectory ? "" : standardized.pathExtension
            folder = standardized.deletingLastPathComponent().path
            size = Int(info.st_size)
            modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
            created = FileEntity.birthTime(of: path)
            self.isDirectory = isDirectory
            contentType = ContentType.of(extension: self.extension, isDirectory: isDirectory)
        }

        /// The birth time the file system records (through `statx`), or `nil` where it records none.
        private static func birthTime(of path: String) -> Date? {
            (try? FileManager.default.attributesOfItem(atPath: path))?[.creationDate] as? Date
        }
    }
}

extension FilesApp.FileEntity: ReflectableEntity {}
