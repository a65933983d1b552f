import Digests
import Foundation
import SeededRandom
import ShortcutsTestSupport
import Testing

/// HMAC-SHA256 and SHA-256 against Python's `hmac` and `hashlib` on random keys and messages of
/// many sizes: every length around the 64-byte block and its 56-byte padding limit, keys
/// shorter and longer than a block, and messages of several blocks.
@Suite("Digests against Python's hmac and hashlib")
struct PythonComparisonTests {
    static let python = "/usr/bin/python3"

    /// Reads `key-hex message-hex` lines from a file and prints `hmac-hex sha256-hex` for each.
    static let script = """
        import hashlib, hmac, sys
        for line in open(sys.argv[1]):
            key, message = (bytes.fromhex(part) for part in line.split(" "))
            print(hmac.new(key, message, hashlib.sha256).hexdigest(), hashlib.sha256(message).hexdigest())
        """

    @Test(
        "Random keys and messages of many sizes give Python's codes and digests",
        .enabled(if: SystemComponents.available(python), "needs python3 at /usr/bin/python3"))
    func randomKeysAndMessages() throws {
        var random = SeededRandomNumberGenerator(seed: 4231)
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) } }
        let keySizes = [0, 1, 20, 32, 63, 64, 65, 131, 200, 1_000]
        let messageSizes =
            [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1_000, 4_096, 65_537]
            + (0..<8).map { _ in Int.random(in: 0...3_000, using: &random) }
        var cases: [(key: [UInt8], message: [UInt8])] = []
        for keySize in keySizes {
            for messageSize in messageSizes { cases.append((bytes(keySize), bytes(messageSize))) }
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("hmac-cases-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: input) }
        let lines = cases.map { Digest(bytes: $0.key).hexadecimal + " " + Digest(bytes: $0.message).hexadecimal }
        try (lines.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = ["-c", Self.script, input.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let answers = printed.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        try #require(answers.count == cases.count)
        for (index, (key, message)) in cases.enumerated() {
            #expect(
                HMACSHA256.authenticationCode(for: message, key: key).hexadecimal == answers[index][0],
                "a key of \(key.count) bytes, a message of \(message.count)")
            #expect(SHA256.hash(message).hexadecimal == answers[index][1], "a message of \(message.count) bytes")
        }
    }
}
