import Foundation
import Testing

@Suite(.endToEnd)
struct TestSupportTests {
    @Test(.timeLimit(.minutes(6)))
    func moreThanAPipeHoldsOnBothStreamsDoesNotBlock() async throws {
        let result = try await ShortcutsBinary().run(["run", PackagePaths.fixture("loud.yaml"), "--json"])
        #expect(result.status == 0, "\(result.error.suffix(500))")
        #expect(result.output.utf8.count > 64 * 1024)
        #expect(result.error.utf8.count > 64 * 1024)
        let lines = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String])
        #expect(lines.count == 300)
        #expect(result.error.split(separator: "\n").count == 300)
        #expect(result.error.contains("line 299 of a workflow that writes more than sixty-four kibibytes"))
    }

    @Test func inputLargerThanAPipeHoldsIsWritten() async throws {
        let title = String(repeating: "x", count: 100_000)
        let result = try await ShortcutsBinary().run(
            ["run", PackagePaths.fixture("echo-input.yaml"), "--input-path", "-", "--json"],
            input: #"{"title": "\#(title)"}"#)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains(title))
    }
}
