import Digests
import Foundation
import Testing

@Suite("HMAC-SHA256")
struct HMACSHA256Tests {
    /// RFC 4231's test cases for HMAC-SHA-256: key, data, and the code (test case 5's only to
    /// 128 bits, as the RFC gives it).
    static let vectors: [(name: String, key: [UInt8], data: [UInt8], code: String)] = [
        ("1", [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (
            "2: a key shorter than the code", Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            "3: 50 bytes of 0xdd", [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            "4: a 25-byte key", Array(1...25), [UInt8](repeating: 0xcd, count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        ("5: truncated to 128 bits", [UInt8](repeating: 0x0c, count: 20), Array("Test With Truncation".utf8), "a3b6167473100ee06e0c796c2955552b"),
        (
            "6: a key larger than a block", [UInt8](repeating: 0xaa, count: 131),
            Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            "7: a key and data larger than a block", [UInt8](repeating: 0xaa, count: 131),
            Array(
                "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
                    .utf8),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        )
    ]

    @Test("RFC 4231's test cases, the truncated one compared on its first 128 bits", arguments: vectors.indices)
    func rfc4231(index: Int) throws {
        let vector = Self.vectors[index]
        let code = HMACSHA256.authenticationCode(for: vector.data, key: vector.key)
        let expected = try #require(Digest(hexadecimal: vector.code))
        #expect(Array(code.bytes.prefix(expected.bytes.count)) == expected.bytes, "test case \(vector.name)")
        #expect(code.bytes.count == 32)
        // A whole code is valid; a truncated one is refused, even when its bytes are right.
        #expect(
            HMACSHA256.isValidAuthenticationCode(hexadecimal: code.hexadecimal.uppercased(), for: vector.data, key: vector.key)
                == true)
        #expect(HMACSHA256.isValidAuthenticationCode(code.bytes.prefix(16), for: vector.data, key: vector.key) == false)
    }

    @Test("A message fed in pieces of any size gives the code of the whole")
    func streaming() {
        let key = Array("It's a Secret to Everybody".utf8)
        let message = Data((0..<500).map { UInt8(truncatingIfNeeded: $0 * 17 + 3) })
        let whole = HMACSHA256.authenticationCode(for: message, key: key)
        for size in [1, 7, 63, 64, 65, 499] {
            var code = HMACSHA256(key: key)
            var offset = 0
            while offset < message.count {
                code.update(message[offset..<min(offset + size, message.count)])
                offset += size
            }
            #expect(code.finalize() == whole, "pieces of \(size)")
        }
    }

    @Test("A code is refused for another message, another key, a changed byte or text that is not hexadecimal")
    func refusals() {
        let key = Array("It's a Secret to Everybody".utf8)
        let message = Array("Hello, World!".utf8)
        let code = HMACSHA256.authenticationCode(for: message, key: key)
        #expect(code.hexadecimal == "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17")
        #expect(HMACSHA256.isValidAuthenticationCode(code.bytes, for: message, key: key))
        #expect(!HMACSHA256.isValidAuthenticationCode(code.bytes, for: Array("Hello, World?".utf8), key: key))
        #expect(!HMACSHA256.isValidAuthenticationCode(code.bytes, for: message, key: Array("another secret".utf8)))
        var changed = code.bytes
        changed[31] ^= 1
        #expect(!HMACSHA256.isValidAuthenticationCode(changed, for: message, key: key))
        #expect(!HMACSHA256.isValidAuthenticationCode(hexadecimal: "sha256=" + code.hexadecimal, for: message, key: key))
        #expect(!HMACSHA256.isValidAuthenticationCode(hexadecimal: String(code.hexadecimal.dropLast()), for: message, key: key))
    }
}
