import Foundation
import ProcessSpawning
import ShortcutsTestSupport
import Testing

@testable import ShortcutsCLI

/// Reading the client's messages: a long line split and checked in linear time, and answered.
/// How lines are split is `LineSplitter`'s (ProcessSpawningTests).
struct MessageReadingTests {
    /// Reads and checks one message of `length` bytes, fed as the reading thread feeds it (64 KiB at a time).
    private func read(length: Int) -> @Sendable () -> Void {
        let message =
            Data(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"text":""#.utf8) + Data(repeating: UInt8(ascii: "a"), count: length)
            + Data(#""}}"#.utf8) + [0x0A]
        return {
            var lines = LineSplitter(limit: 64 * 1024 * 1024, skippingBlankLines: true)
            var read: [LineSplitter.Event] = []
            message.withUnsafeBytes { bytes in
                for start in stride(from: 0, to: bytes.count, by: 64 * 1024) {
                    read += lines.append(UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + 64 * 1024, bytes.count)]))
                }
            }
            guard case .line(let line) = read.first else { return }
            _ = JSONSyntax.problem(in: line)
        }
    }

    @Test func readingAMessageTakesTimeLinearInItsLength() async {
        // Linear reading takes 64 times as long for 64 times the bytes, quadratic 4,096 times; the
        // bound between them leaves a factor of 16 for the caches a larger buffer misses and a
        // busy machine (a whole suite beside it made 16 times the bytes take 68 times as long).
        let growth = await GrowthRatio.measure(rounds: 3, small: read(length: 128 * 1024), large: read(length: 8 * 1024 * 1024))
        #expect(growth.ratio < 1_024, "128 KiB against 8 MiB: \(growth)")
    }

    @Test func aTwoMegabyteLineIsAnswered() async throws {
        let session = try MCPSession()
        let line = #"{"jsonrpc":"2.0","id":"big","method":"ping","params":{"text":""# + String(repeating: "a", count: 2_000_000) + #""}}"#
        try await session.send(line)
        let answer = try #require(try await session.answer())
        // Read in linear time (the ratio test above); no wall-time bound, which a busy machine breaks.
        #expect(answer["id"] as? String == "big")
        try await session.end()
    }
}
