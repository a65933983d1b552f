import Foundation
import Testing

@testable import TextEmbedding

@Suite("SHA-256")
struct SHA256DigestTests {
    @Test(
        "The digests of FIPS 180-4's examples",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            )
        ])
    func knownDigests(text: String, expected: String) {
        var digest = SHA256Digest()
        digest.update(Data(text.utf8))
        #expect(digest.hexadecimal() == expected)
    }

    @Test("Bytes fed in pieces of any size give the digest of the whole, across block and padding boundaries")
    func pieces() {
        let bytes = Data((0..<1_000).map { UInt8(truncatingIfNeeded: $0 * 31 + 7) })
        var whole = SHA256Digest()
        whole.update(bytes)
        let expected = whole.hexadecimal()
        for size in [1, 3, 55, 56, 63, 64, 65, 127, 999] {
            var digest = SHA256Digest()
            var offset = 0
            while offset < bytes.count {
                digest.update(bytes.subdata(in: offset..<min(offset + size, bytes.count)))
                offset += size
            }
            #expect(digest.hexadecimal() == expected, "pieces of \(size)")
        }
    }

    @Test("A file's digest is read in pieces: a million 'a's, FIPS 180-4's long example")
    func fileDigest() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(String(repeating: "a", count: 1_000_000).utf8).write(to: file)
        #expect(try SHA256Digest.ofFile(at: file) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
