import CZlib
import Foundation

/// Writes small zip archives for tests: each entry deflated or stored, with a central
/// directory, as Python's `zipfile` writes wheels.
///
/// ```swift
/// let wheel = TestZipWriter.archive([("pkg/data/model.safetensors", bytes, true)])
/// ```
enum TestZipWriter {
    /// The bytes of an archive of entries (path, contents, whether deflated). `keepingCompressedBytes`
    /// cuts every entry's compressed bytes to that many, as in a damaged archive.
    static func archive(_ entries: [(path: String, contents: Data, deflated: Bool)], keepingCompressedBytes: Int? = nil) -> Data {
        var output = Data()
        var directory = Data()
        for entry in entries {
            let compressed = entry.deflated ? deflate(entry.contents) : entry.contents
            let stored = keepingCompressedBytes.map { compressed.prefix($0) } ?? compressed
            let checksum = entry.contents.withUnsafeBytes { bytes in
                UInt32(crc32(0, bytes.bindMemory(to: Bytef.self).baseAddress, uInt(bytes.count)))
            }
            let name = Data(entry.path.utf8)
            let method: UInt16 = entry.deflated ? 8 : 0
            let offset = UInt32(output.count)
            output.append(le32(0x0403_4b50) + le16(20) + le16(0) + le16(method) + le32(0))
            output.append(le32(checksum) + le32(UInt32(stored.count)) + le32(UInt32(entry.contents.count)))
            output.append(le16(UInt16(name.count)) + le16(0) + name + stored)
            directory.append(le32(0x0201_4b50) + le16(20) + le16(20) + le16(0) + le16(method) + le32(0))
            directory.append(le32(checksum) + le32(UInt32(stored.count)) + le32(UInt32(entry.contents.count)))
            directory.append(le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + name)
        }
        let directoryOffset = UInt32(output.count)
        output.append(directory)
        output.append(le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count)))
        output.append(le32(UInt32(directory.count)) + le32(directoryOffset) + le16(0))
        return output
    }

    /// A raw deflate stream (no zlib header), as zip stores it.
    static func deflate(_ data: Data) -> Data {
        var stream = z_stream()
        deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var output = Data(count: Int(deflateBound(&stream, uLong(data.count))) + 64)
        var input = data
        let produced = input.withUnsafeMutableBytes { source in
            output.withUnsafeMutableBytes { target in
                stream.next_in = source.bindMemory(to: Bytef.self).baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(target.count)
                CZlib.deflate(&stream, Z_FINISH)
                return target.count - Int(stream.avail_out)
            }
        }
        return output.prefix(produced)
    }

    private static func le16(_ value: UInt16) -> Data { Data([UInt8(value & 0xFF), UInt8(value >> 8)]) }
    private static func le32(_ value: UInt32) -> Data { Data((0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }) }
}
