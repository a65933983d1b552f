import Foundation
import GRDB
import ShortcutsTestSupport
import Synchronization
import Testing

@testable import SpotlightKit

/// Locates the `spotlight-crash-child` executable built beside the test bundle.
func crashChildURL() throws -> URL {
    var candidates: [URL] = []
    let argumentZero = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    candidates.append(argumentZero.deletingLastPathComponent())
    candidates.append(argumentZero.deletingLastPathComponent().deletingLastPathComponent())
    if let executable = Bundle.main.executableURL {
        candidates.append(executable.deletingLastPathComponent())
    }
    for directory in candidates {
        let url = directory.appendingPathComponent("spotlight-crash-child")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    throw SpotlightError.invalidStoreConfiguration(store: "test", reason: "spotlight-crash-child not found near \(argumentZero.path)")
}

/// Counts the progress lines a child writes, reading on a background thread.
final class ProgressReader: Sendable {
    private let lines = Mutex<[String]>([])
    /// Fired after each line, and at the end of the output.
    let changed = ChangeNotice()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var pending = ""
            while true {
                let data = handle.availableData
                if data.isEmpty {
                    self.changed.post()
                    return
                }
                pending += String(decoding: data, as: UTF8.self)
                while let newline = pending.firstIndex(of: "\n") {
                    let line = String(pending[..<newline])
                    pending = String(pending[pending.index(after: newline)...])
                    self.lines.withLock { $0.append(line) }
                    self.changed.post()
                }
            }
        }
    }

    var rowLines: [String] { lines.withLock { $0.filter { $0.hasPrefix("row ") } } }
}

@Suite("Crash safety")
struct CrashTests {
    static let photoEntity = SpotlightEntity(
        table: "photo", indexedColumns: ["userSpecifiedName"],
        displayNameColumn: "userSpecifiedName", contentType: .image)

    @Test(.timeLimit(.minutes(2)))
    func killedMidBatchLosesNothingAndResumesFromItsToken() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tags.sqlite").path
        let pool = try DatabasePool(path: path)
        try tagsMigrator().migrate(pool)

        // Track history from an empty store, then stop: the child will do the work.
        let delegate = try SpotlightDelegate(forStoreWith: pool, entities: [Self.photoEntity], batchSize: 50)
        try delegate.startIndexing()
        try await delegate.waitUntilIndexed()
        delegate.stopIndexing()
        #expect(try await delegate.currentHistoryToken() == 0)

        let total = 600
        try await pool.write { db in
            for number in 1...total {
                var photo = Photo(id: nil, userSpecifiedName: "Photo \(number)")
                try photo.insert(db)
            }
        }

        let child = Process()
        child.executableURL = try crashChildURL()
        // It stops at row 130, inside its third batch (rows 101…150), after committing two.
        child.arguments = [path, "4000", "50", "130"]
        let output = Pipe()
        child.standardOutput = output
        let reader = ProgressReader(output.fileHandleForReading)
        try child.run()

        // Killed there, however late this loop gets to it on a loaded machine.
        try await eventually(watching: [.notice(reader.changed), .exit(child.processIdentifier)]) {
            reader.rowLines.count >= 130 || !child.isRunning
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGKILL)
        let processedBeforeKill = reader.rowLines.count
        #expect(processedBeforeKill == 130)

        // What is committed is whole batches, with the token of the last one.
        let token = try #require(try await delegate.currentHistoryToken())
        let indexed = try await delegate.searchableIndex.itemCount()
        #expect(token % 50 == 0)
        #expect(Int(token) == indexed, "every committed history entry is indexed, and nothing else")
        #expect(indexed < total)
        #expect(indexed < processedBeforeKill, "the batch in progress was rolled back")
        let indexedRows = try await delegate.searchableIndex.database.read { db in
            try String.fetchAll(db, sql: "SELECT uniqueIdentifier FROM spotlightItem")
        }.compactMap { StoreObjectID(uniqueIdentifier: $0)?.rowID }
        #expect(Set(indexedRows) == Set(1...token))
        let pending = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM spotlightHistory")! }
        #expect(pending == total - Int(token), "history after the token is still there")

        // A new indexer resumes from the token and loses nothing.
        let restarted = try SpotlightDelegate(forStoreWith: pool, entities: [Self.photoEntity], batchSize: 50)
        try restarted.startIndexing()
        try await restarted.waitUntilIndexed()
        restarted.stopIndexing()
        #expect(try await restarted.currentHistoryToken() == Int64(total))
        #expect(try await restarted.searchableIndex.itemCount() == total)
        var hits = 0
        for try await _ in SearchQuery(queryString: #"displayName == "photo*"c"#, attributes: [], index: restarted.searchableIndex).results {
            hits += 1
        }
        #expect(hits == total)
    }
}
