import Clockwork
import Foundation
import Testing
import WorkflowKit

@testable import AutomationKit

/// How a burst of one file's events sums up to one event, and when it ends.
@Suite("File bursts")
struct FileBurstTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func burst(_ changes: [FileChange]) -> FileBurst {
        var burst = FileBurst(changes[0], at: start)
        for change in changes.dropFirst() { burst.apply(change, at: start) }
        return burst
    }

    @Test("The event is the net change from before the first event to after the last")
    func netEvent() {
        #expect(burst([.created, .opened, .written, .modified]).event == .created)
        #expect(burst([.written, .written, .modified]).event == .modified)
        #expect(burst([.modified, .deleted]).event == .deleted)
        #expect(burst([.deleted, .created, .modified]).event == .modified, "replaced: it was there before and after")
        #expect(burst([.created, .deleted]).event == nil, "a temporary file that came and went")
        #expect(burst([.created, .deleted, .created]).event == .created)
    }

    @Test("A burst ends after the quiet time, or later while a writer has the file open")
    func end() {
        let debounce = Duration.milliseconds(500)
        let closed = burst([.created, .opened, .written, .modified])
        #expect(closed.end(debounce: debounce) == start.adding(.milliseconds(500)))
        let open = burst([.created, .opened, .written])
        #expect(open.end(debounce: debounce) == start.adding(.seconds(60)), "still being written")
        let read = burst([.modified, .opened])
        #expect(read.end(debounce: debounce) == start.adding(.seconds(60)), "a reader has it open")
        #expect(burst([.modified, .opened, .closedUnwritten]).end(debounce: debounce) == start.adding(.milliseconds(500)))
        #expect(
            burst([.created, .opened, .written, .deleted]).end(debounce: debounce) == start.adding(.milliseconds(500)),
            "a deleted file is not written any more")
        var later = closed
        later.apply(.written, at: start.adding(.seconds(2)))
        later.apply(.modified, at: start.adding(.seconds(3)))
        #expect(later.end(debounce: debounce) == start.adding(.milliseconds(3500)), "each event starts the quiet time again")
    }
}
