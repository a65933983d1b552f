import CZlib
import Foundation

extension ZipArchive {
    /// Writes an entry's contents to a new file, inflating it when it is compressed, and checks
    /// its CRC-32.
    ///
    /// ```swift
    /// try wheel.extract(entry, to: folder.appendingPathComponent("model.safetensors")) { written in
    ///     print("\(written) of \(entry.size) bytes")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - entry: One of ``entries``.
    ///   - destination: The file to write; replaced if it exists.
    ///   - progress: Called with the number of bytes written so far, after each piece.
    /// - Throws: ``ZipArchiveError`` for a damaged or unsupported entry; the file error when the
    ///   destination cannot be written.
    func extract(_ entry: Entry, to destination: URL, progress: ((Int) -> Void)? = nil) throws {
        let reader = LittleEndianReader(bytes: bytes)
        let local = entry.localHeaderOffset
        guard reader.uint32(at: local) == Self.localHeaderSignature, let nameLength = reader.uint16(at: local + 26),
            let extraLength = reader.uint16(at: local + 28)
        else {
            throw ZipArchiveError(path: url.path, reason: "the local header of \(entry.path) is damaged")
        }
        if entry.flags & 1 != 0 {
            throw ZipArchiveError(path: url.path, reason: "\(entry.path) is encrypted")
        }
        let start = local + 30 + Int(nameLength) + Int(extraLength)
        guard start + entry.compressedSize <= bytes.count else {
            throw ZipArchiveError(path: url.path, reason: "\(entry.path) runs past the end of the file (truncated?)")
        }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw ZipArchiveError(path: url.path, reason: "cannot create \(destination.path)")
        }
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        var checksum: uLong = crc32(0, nil, 0)
        var written = 0
        let write: (UnsafeRawBufferPointer) throws -> Void = { piece in
            guard !piece.isEmpty else { return }
            checksum = crc32(checksum, piece.bindMemory(to: Bytef.self).baseAddress, uInt(piece.count))
            try output.write(contentsOf: Data(piece))
            written += piece.count
            progress?(written)
        }
        try bytes.withUnsafeBytes { (archive: UnsafeRawBufferPointer) throws in
            let compressed = UnsafeRawBufferPointer(rebasing: archive[start..<(start + entry.compressedSize)])
            switch entry.method {
            case 0:
                var offset = 0
                while offset < compressed.count {
                    let end = min(offset + (1 << 20), compressed.count)
                    try write(UnsafeRawBufferPointer(rebasing: compressed[offset..<end]))
                    offset = end
                }
            case 8:
                try inflate(compressed, entry: entry, write: write)
            default:
                throw ZipArchiveError(
                    path: url.path, reason: "\(entry.path) is compressed with method \(entry.method); only stored and deflate are read")
            }
        }
        guard written == entry.size, UInt32(truncatingIfNeeded: checksum) == entry.crc32 else {
            throw ZipArchiveError(path: url.path, reason: "\(entry.path) is damaged (its size or CRC-32 does not match the directory)")
        }
    }

    private func inflate(
        _ compressed: UnsafeRawBufferPointer, entry: Entry, write: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var stream = z_stream()
        // Negative window bits: a raw deflate stream, without zlib's header, as zip stores it.
        guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ZipArchiveError(path: url.path, reason: "zlib cannot start inflating \(entry.path)")
        }
        defer { inflateEnd(&stream) }
        let capacity = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        stream.next_in = UnsafeMutablePointer(mutating: compressed.bindMemory(to: Bytef.self).baseAddress)
        stream.avail_in = uInt(compressed.count)
        while true {
            stream.next_out = buffer.bindMemory(to: Bytef.self).baseAddress
            stream.avail_out = uInt(capacity)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            if status == Z_BUF_ERROR && stream.avail_in == 0 {
                throw ZipArchiveError(path: url.path, reason: "\(entry.path) ends before its deflate stream does (truncated?)")
            }
            guard status == Z_OK || status == Z_STREAM_END else {
                let message = stream.msg.map { String(cString: $0) } ?? "status \(status)"
                throw ZipArchiveError(path: url.path, reason: "\(entry.path) is damaged (\(message))")
            }
            try write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<(capacity - Int(stream.avail_out))]))
            if status == Z_STREAM_END { return }
            if stream.avail_in == 0 && stream.avail_out != 0 {
                throw ZipArchiveError(path: url.path, reason: "\(entry.path) ends before its deflate stream does (truncated?)")
            }
        }
    }
}
