import Digests
import Foundation
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    @Test(
        "The digests of FIPS 180-4's examples",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            )
        ])
    func knownDigests(text: String, expected: String) {
        #expect(SHA256.hash(Data(text.utf8)).hexadecimal == expected)
        var hasher = SHA256()
        hasher.update(Array(text.utf8))
        #expect(hasher.finalize().hexadecimal == expected)
    }

    @Test("Bytes fed in pieces of any size give the digest of the whole, across block and padding boundaries")
    func pieces() {
        let bytes = Data((0..<1_000).map { UInt8(truncatingIfNeeded: $0 * 31 + 7) })
        let expected = SHA256.hash(bytes)
        for size in [1, 3, 55, 56, 63, 64, 65, 127, 999] {
            var hasher = SHA256()
            var offset = 0
            while offset < bytes.count {
                hasher.update(bytes[offset..<min(offset + size, bytes.count)])
                offset += size
            }
            #expect(hasher.finalize() == expected, "pieces of \(size)")
        }
    }

    @Test("Finalizing leaves the digest running: more bytes give the digest of everything added")
    func finalizeThenContinue() {
        var hasher = SHA256()
        hasher.update(Data("ab".utf8))
        #expect(hasher.finalize() == SHA256.hash(Data("ab".utf8)))
        hasher.update(Data("c".utf8))
        #expect(hasher.finalize().hexadecimal == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("A file's digest is read in pieces: a million 'a's, FIPS 180-4's long example, with the progress of each piece")
    func fileDigest() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(String(repeating: "a", count: 1_000_000).utf8).write(to: file)
        var reported: [Int] = []
        let digest = try SHA256.hash(contentsOf: file) { reported.append($0) }
        #expect(digest.hexadecimal == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(reported == [1_000_000])
    }

    @Test("A file that cannot be opened throws")
    func missingFile() {
        #expect(throws: (any Error).self) {
            try SHA256.hash(contentsOf: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)"))
        }
    }
}
