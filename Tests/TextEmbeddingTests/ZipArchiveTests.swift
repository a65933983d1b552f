import Foundation
import ShortcutsTestSupport
import Testing

@testable import TextEmbedding

@Suite("Zip archives")
final class ZipArchiveTests {
    let folder: URL

    init() throws {
        folder = try TemporaryFolder.make(prefix: "zip-archive")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    private func write(_ data: Data, as name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    @Test("Deflated and stored entries, in folders, are extracted byte for byte")
    func extractsEntries() throws {
        let large = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 % 251 ^ $0 >> 9) })
        let small = Data("{\"hidden_size\": 384}".utf8)
        let url = try write(
            TestZipWriter.archive([
                ("pkg/", Data(), false), ("pkg/data/model.safetensors", large, true), ("pkg/data/config.json", small, false),
                ("pkg/empty.txt", Data(), true)
            ]), as: "model.whl")
        let archive = try ZipArchive(url: url)
        #expect(archive.entries.map(\.path) == ["pkg/", "pkg/data/model.safetensors", "pkg/data/config.json", "pkg/empty.txt"])
        #expect(archive.entries[0].isFolder)
        #expect(archive.entries[1].name == "model.safetensors")
        for (index, expected) in [(1, large), (2, small), (3, Data())] {
            let destination = folder.appendingPathComponent("out-\(index)")
            var reported: [Int] = []
            try archive.extract(archive.entries[index], to: destination) { reported.append($0) }
            #expect(try Data(contentsOf: destination) == expected)
            #expect(reported.last ?? 0 == expected.count)
        }
    }

    @Test("A file that is not a zip archive is refused with its path and why")
    func notAnArchive() throws {
        let url = try write(Data("not a zip at all".utf8), as: "plain.txt")
        #expect(throws: ZipArchiveError(path: url.path, reason: "it is not a zip archive (no end of central directory record)")) {
            try ZipArchive(url: url)
        }
    }

    @Test("An entry whose bytes were changed fails its CRC-32 check instead of extracting wrong bytes")
    func damagedEntry() throws {
        var bytes = TestZipWriter.archive([("a/tokenizer.json", Data(String(repeating: "token ", count: 100).utf8), false)])
        bytes[30 + "a/tokenizer.json".utf8.count + 5] ^= 0xFF
        let archive = try ZipArchive(url: try write(bytes, as: "damaged.whl"))
        #expect(throws: ZipArchiveError.self) {
            try archive.extract(archive.entries[0], to: folder.appendingPathComponent("out"))
        }
    }

    @Test("A truncated deflate stream is an error, not a short file")
    func truncatedEntry() throws {
        let contents = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7919 >> 3) })
        let compressedLength = TestZipWriter.deflate(contents).count
        let bytes = TestZipWriter.archive([("model.safetensors", contents, true)], keepingCompressedBytes: compressedLength / 2)
        let archive = try ZipArchive(url: try write(bytes, as: "truncated.whl"))
        let expected = ZipArchiveError(
            path: archive.url.path, reason: "model.safetensors ends before its deflate stream does (truncated?)")
        #expect(throws: expected) {
            try archive.extract(archive.entries[0], to: folder.appendingPathComponent("out"))
        }
    }
}
