import Foundation
import GRDB
import Synchronization
import Testing

@testable import SpotlightKit

/// A Tags delegate that runs a hook when it builds its first item, in the middle of reading
/// a batch of history.
final class InterruptedTagsDelegate: SpotlightDelegate, @unchecked Sendable {
    let hook = Mutex<(@Sendable () -> Void)?>(nil)

    init(store: any DatabaseWriter, indexDatabase: any DatabaseWriter) throws {
        try super.init(
            forStoreWith: store,
            entities: [SpotlightEntity(table: "photo", indexedColumns: ["userSpecifiedName"], contentType: .image)],
            indexDatabase: indexDatabase, batchSize: 256, pollInterval: .milliseconds(50))
    }

    override func indexName() -> String? { "tags" }

    override func attributeSet(for object: StoreObject, in db: Database) throws -> SearchableItemAttributeSet? {
        if let run = hook.withLock({ hook in
            defer { hook = nil }
            return hook
        }) {
            run()
        }
        return try super.attributeSet(for: object, in: db)
    }
}

@Suite("Concurrent indexers")
struct ConcurrentIndexerTests {
    /// Two indexers of one store (two processes): one reads a batch of history while the other
    /// commits part of it. The first must not prune history the second has not indexed yet.
    @Test func anIndexerThatLosesTheRaceKeepsTheHistory() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DatabasePool(path: directory.appendingPathComponent("tags.sqlite").path)
        try tagsMigrator().migrate(store)
        let indexDatabase = try DatabasePool(path: directory.appendingPathComponent("index.sqlite").path)
        let slow = try InterruptedTagsDelegate(store: store, indexDatabase: indexDatabase)
        let fastTags = try FastTagsDelegate(store: store, indexDatabase: indexDatabase)

        try fastTags.startIndexing()
        try await fastTags.waitUntilIndexed()
        fastTags.stopIndexing()
        for name in ["One", "Two", "Three"] { try addPhoto(name, tags: [], to: store) }

        // While the slow indexer reads all three changes, the fast one commits the first.
        slow.hook.withLock { hook in
            hook = {
                let done = DispatchSemaphore(value: 0)
                Task.detached {
                    _ = try? await fastTags.processNextBatch()
                    done.signal()
                }
                done.wait()
            }
        }
        #expect(try await slow.processNextBatch())
        while try await fastTags.processNextBatch() {}
        let names = try await found(#"displayName == "*""#, in: fastTags).compactMap(\.attributeSet.displayName)
        #expect(Set(names) == ["One", "Two", "Three"])
    }
}

/// A delegate of the same index and store that indexes one change per batch.
final class FastTagsDelegate: SpotlightDelegate, @unchecked Sendable {
    init(store: any DatabaseWriter, indexDatabase: any DatabaseWriter) throws {
        try super.init(
            forStoreWith: store,
            entities: [
                SpotlightEntity(
                    table: "photo", indexedColumns: ["userSpecifiedName"],
                    displayNameColumn: "userSpecifiedName", contentType: .image)
            ],
            indexDatabase: indexDatabase, batchSize: 1, pollInterval: .milliseconds(50))
    }

    override func indexName() -> String? { "tags" }
}
