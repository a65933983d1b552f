import Foundation
import ProcessSpawning
import ShortcutsTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Splitting a line protocol's bytes: wherever reads cut them, a long line in linear time, a
/// line over the limit said as soon as it shows and dropped without holding it.
struct LineSplitterTests {
    private func events(_ chunks: [String], limit: Int = 16, skippingBlankLines: Bool = true) -> [LineSplitter.Event] {
        var lines = LineSplitter(limit: limit, skippingBlankLines: skippingBlankLines)
        var events: [LineSplitter.Event] = []
        for chunk in chunks { events += Data(chunk.utf8).withUnsafeBytes { lines.append($0) } }
        if let last = lines.finish() { events.append(last) }
        return events
    }

    private func line(_ text: String) -> LineSplitter.Event { .line(Data(text.utf8)) }

    @Test func linesAreSplitWhereverReadsCutThemAndBlankOnesAreSkipped() {
        #expect(events(["{\"a\"", ":1}\n\n  \r\n\t\n[2", "]\n", "3"]) == [line(#"{"a":1}"#), line("[2]"), line("3")])
    }

    @Test func withoutSkippingEveryLineComesOutAndAFinalNewlineEndsTheInput() {
        #expect(events(["a\n\n \r", "\nb\n"], skippingBlankLines: false) == [line("a"), line(""), line(" \r"), line("b")])
        #expect(events([], skippingBlankLines: false) == [])
    }

    @Test func aLineOverTheLimitIsSaidAsSoonAsItShowsThenCountedAtItsEnd() {
        #expect(
            events(["0123456789", "0123456789", "01\n[1]\n"]) == [.limitExceeded, .tooLong(byteCount: 22), line("[1]")])
        #expect(events(["0123456789012345\n"]) == [line("0123456789012345")])
        #expect(events(["01234567890123456"]) == [.limitExceeded, .tooLong(byteCount: 17)])
        // Over the limit within one read, its newline in the same read.
        #expect(events(["[1]\n\n0123456789abcdefgh\n{\"a\""]) == [line("[1]"), .limitExceeded, .tooLong(byteCount: 18), line(#"{"a""#)])
    }

    @Test func aLineOverTheLimitIsSaidOnceHoweverManyReadsItTakes() {
        var lines = LineSplitter(limit: 16)
        let chunk = Data(repeating: UInt8(ascii: "a"), count: 7)
        var events: [LineSplitter.Event] = []
        for _ in 0..<1000 { events += chunk.withUnsafeBytes { lines.append($0) } }
        #expect(events == [.limitExceeded])
        events += Data("\nb\n".utf8).withUnsafeBytes { lines.append($0) }
        #expect(events == [.limitExceeded, .tooLong(byteCount: 7000), line("b")])
        #expect(lines.finish() == nil)
    }

    /// Splits one line of `length` bytes fed 256 bytes at a time, as many small writes reach a reader.
    private func split(length: Int) -> @Sendable () -> Void {
        let bytes = Data(repeating: UInt8(ascii: "a"), count: length) + [0x0A]
        return {
            var lines = LineSplitter(limit: 64 * 1024 * 1024)
            var read: [LineSplitter.Event] = []
            bytes.withUnsafeBytes { bytes in
                for start in stride(from: 0, to: bytes.count, by: 256) {
                    read += lines.append(UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + 256, bytes.count)]))
                }
            }
            #expect(read == [.line(bytes.dropLast())])
        }
    }

    @Test func splittingALineTakesTimeLinearInItsLength() async {
        // Linear splitting takes 64 times as long for 64 times the bytes, quadratic 4,096 times;
        // the bound between them leaves a factor of 16 for the caches a larger buffer misses and
        // a busy machine.
        let growth = await GrowthRatio.measure(small: split(length: 128 * 1024), large: split(length: 8 * 1024 * 1024))
        #expect(growth.ratio < 1_024, "128 KiB against 8 MiB: \(growth)")
    }

    @Test func aDescriptorIsReadToItsEndWithTheLastLineLeftForFinish() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let writer = Thread { [ends] in
            for piece in ["one\ntw", "o\n", String(repeating: "x", count: 40), "\nthree"] {
                _ = piece.utf8CString.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count - 1) }
            }
            close(ends[1])
        }
        writer.start()
        var lines = LineSplitter(limit: 16)
        var events: [LineSplitter.Event] = []
        let failure = lines.read(from: ends[0]) { events.append($0) }
        close(ends[0])
        #expect(failure == nil)
        #expect(events == [line("one"), line("two"), .limitExceeded, .tooLong(byteCount: 40)])
        #expect(lines.finish() == line("three"))
    }

    @Test func aReadThatFailsEndsReadingWithItsError() {
        var lines = LineSplitter(limit: 16)
        #expect(lines.read(from: -1) { _ in } == EBADF)
    }
}
