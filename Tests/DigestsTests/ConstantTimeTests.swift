import Digests
import Foundation
import Testing

@Suite("Constant-time comparison and hexadecimal digits")
struct ConstantTimeTests {
    @Test("Byte strings are equal only with the same length and the same bytes, wherever they differ")
    func bytes() {
        let bytes = [UInt8](0..<32)
        #expect(ConstantTime.isEqual(bytes, Data(bytes)))
        #expect(ConstantTime.isEqual([UInt8](), Data()))
        #expect(!ConstantTime.isEqual(bytes, bytes.dropLast()))
        for position in [0, 15, 31] {
            var other = bytes
            other[position] ^= 0x80
            #expect(!ConstantTime.isEqual(bytes, other), "differs at \(position)")
        }
    }

    @Test("Hexadecimal digests compare by their bytes, in either case; text that is not hexadecimal is unequal")
    func hexadecimal() {
        #expect(ConstantTime.isEqual(hexadecimal: "00ABff", "00abFF"))
        #expect(!ConstantTime.isEqual(hexadecimal: "00abff", "00abfe"))
        #expect(!ConstantTime.isEqual(hexadecimal: "00ab", "00abff"))
        #expect(!ConstantTime.isEqual(hexadecimal: "0g", "0g"))
        #expect(!ConstantTime.isEqual(hexadecimal: "abc", "abc"))
    }

    @Test("A digest's hexadecimal digits read back to the same digest; other text reads as nothing")
    func roundTrip() throws {
        let digest = SHA256.hash(Data("abc".utf8))
        #expect(Digest(hexadecimal: digest.hexadecimal) == digest)
        #expect(Digest(hexadecimal: digest.hexadecimal.uppercased()) == digest)
        #expect(digest.description == digest.hexadecimal)
        #expect(Digest(hexadecimal: "")?.bytes == [])
        #expect(Digest(hexadecimal: "0") == nil)
        #expect(Digest(hexadecimal: "zz") == nil)
        #expect(Digest(hexadecimal: " 00") == nil)
        #expect(Set([digest, SHA256.hash(Data("abc".utf8)), SHA256.hash(Data())]).count == 2)
    }
}
