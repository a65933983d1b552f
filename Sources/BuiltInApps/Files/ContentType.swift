/// The media type of a file, from its extension (compared without case).
///
/// | Extensions | Type |
/// |---|---|
/// | txt, text, log | text/plain |
/// | md, markdown | text/markdown |
/// | csv / tsv | text/csv / text/tab-separated-values |
/// | html, htm / css / xml | text/html / text/css / application/xml |
/// | json / yaml, yml | application/json / application/yaml |
/// | js / swift / py / sh | text/javascript / text/x-swift / text/x-python / application/x-sh |
/// | pdf | application/pdf |
/// | zip / gz, tgz / tar / bz2 / xz / 7z | application/zip / application/gzip / application/x-tar / application/x-bzip2 / application/x-xz / application/x-7z-compressed |
/// | jpg, jpeg / png / gif / webp / svg / heic / bmp / tiff, tif | image/jpeg / image/png / image/gif / image/webp / image/svg+xml / image/heic / image/bmp / image/tiff |
/// | mp3 / wav / flac / ogg / m4a | audio/mpeg / audio/wav / audio/flac / audio/ogg / audio/mp4 |
/// | mp4 / mov / mkv / webm / avi | video/mp4 / video/quicktime / video/x-matroska / video/webm / video/x-msvideo |
/// | doc, docx / xls, xlsx / ppt, pptx / odt / ods | the Office and OpenDocument types |
/// | deb / rpm / iso | application/vnd.debian.binary-package / application/x-rpm / application/x-iso9660-image |
///
/// Folders are `inode/directory`; any other file is `application/octet-stream`.
///
/// ```swift
/// ContentType.of(extension: "JPG", isDirectory: false)   // "image/jpeg"
/// ```
enum ContentType {
    /// The media type of a file or folder.
    static func of(extension fileExtension: String, isDirectory: Bool) -> String {
        if isDirectory { return "inode/directory" }
        return table[fileExtension.lowercased()] ?? "application/octet-stream"
    }

    static let table: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "log": "text/plain",
        "md": "text/markdown", "markdown": "text/markdown",
        "csv": "text/csv", "tsv": "text/tab-separated-values",
        "html": "text/html", "htm": "text/html", "css": "text/css", "xml": "application/xml",
        "json": "application/json", "yaml": "application/yaml", "yml": "application/yaml",
        "js": "text/javascript", "swift": "text/x-swift", "py": "text/x-python", "sh": "application/x-sh",
        "pdf": "application/pdf",
        "zip": "application/zip", "gz": "application/gzip", "tgz": "application/gzip", "tar": "application/x-tar",
        "bz2": "application/x-bzip2", "xz": "application/x-xz", "7z": "application/x-7z-compressed",
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "heic": "image/heic", "bmp": "image/bmp", "tiff": "image/tiff", "tif": "image/tiff",
        "mp3": "audio/mpeg", "wav": "audio/wav", "flac": "audio/flac", "ogg": "audio/ogg", "m4a": "audio/mp4",
        "mp4": "video/mp4", "mov": "video/quicktime", "mkv": "video/x-matroska", "webm": "video/webm", "avi": "video/x-msvideo",
        "doc": "application/msword", "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint", "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text", "ods": "application/vnd.oasis.opendocument.spreadsheet",
        "deb": "application/vnd.debian.binary-package", "rpm": "application/x-rpm", "iso": "application/x-iso9660-image"
    ]
}
