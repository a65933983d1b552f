// A child process for the crash test: it indexes a Tags-style store slowly, so
// that the parent can kill it with SIGKILL in the middle of a batch. With PAUSE_AT_ROW it
// stops at that row, inside its batch's transaction, until it is killed, however slowly
// the parent gets to it.
//
// Usage: spotlight-crash-child DATABASE_PATH MICROSECONDS_PER_ROW BATCH_SIZE [PAUSE_AT_ROW]
import Foundation
import GRDB
import SpotlightKit

final class SlowDelegate: SpotlightDelegate, @unchecked Sendable {
    let delay: UInt32
    let pauseAtRow: Int64?

    init(store: DatabasePool, delay: UInt32, batchSize: Int, pauseAtRow: Int64?) throws {
        self.delay = delay
        self.pauseAtRow = pauseAtRow
        try super.init(
            forStoreWith: store,
            entities: [
                SpotlightEntity(
                    table: "photo", indexedColumns: ["userSpecifiedName"],
                    displayNameColumn: "userSpecifiedName", contentType: .image)
            ],
            batchSize: batchSize,
            pollInterval: .milliseconds(50))
    }

    override func attributeSet(for object: StoreObject, in db: Database) throws -> SearchableItemAttributeSet? {
        // Reports progress from inside the indexing transaction.
        FileHandle.standardOutput.write(Data("row \(object.rowID)\n".utf8))
        usleep(delay)
        if object.rowID == pauseAtRow {
            // Waits to be killed; the main loop ends the process if that never comes.
            while true { sleep(60) }
        }
        return try super.attributeSet(for: object, in: db)
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 4 || arguments.count == 5, let delay = UInt32(arguments[2]), let batchSize = Int(arguments[3]),
    arguments.count == 4 || Int64(arguments[4]) != nil
else {
    FileHandle.standardError.write(Data("usage: spotlight-crash-child DATABASE_PATH MICROSECONDS_PER_ROW BATCH_SIZE [PAUSE_AT_ROW]\n".utf8))
    exit(2)
}
let parent = getppid()
do {
    var configuration = Configuration()
    configuration.busyMode = .timeout(30)
    let pool = try DatabasePool(path: arguments[1], configuration: configuration)
    let delegate = try SlowDelegate(
        store: pool, delay: delay, batchSize: batchSize,
        pauseAtRow: arguments.count == 5 ? Int64(arguments[4]) : nil)
    try delegate.startIndexing()
    FileHandle.standardOutput.write(Data("ready \(delegate.storeIdentifier)\n".utf8))
    // Runs until killed; gives up when orphaned or after a minute.
    let start = Date()
    while getppid() == parent && Date().timeIntervalSince(start) < 60 {
        try await Task.sleep(for: .milliseconds(20))
    }
    exit(3)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
