import Foundation
import IntentKit
import Synchronization
import Testing

/// The state an app's `setUp` prepares, seen by its intents.
final class SetUpRecord: Sendable {
    private let state = Mutex<(calls: Int, isReady: Bool, failuresLeft: Int)>((0, false, 0))

    init(failures: Int = 0) {
        state.withLock { $0.failuresLeft = failures }
    }

    var calls: Int { state.withLock { $0.calls } }
    var isReady: Bool { state.withLock { $0.isReady } }

    /// A set-up that takes a while, and fails the first `failures` times.
    func setUp() async throws {
        let fails = state.withLock { state -> Bool in
            state.calls += 1
            guard state.failuresLeft > 0 else { return false }
            state.failuresLeft -= 1
            return true
        }
        // Wall time: a set-up that takes a while, so that the callers meet while it runs; the result does not depend on it.
        try await Task.sleep(for: .milliseconds(150))
        if fails { throw SetUpFailed() }
        state.withLock { $0.isReady = true }
    }

    struct SetUpFailed: Error, CustomStringConvertible {
        var description: String { "the storage could not be opened" }
    }
}

/// `IntentPerformer.prepare`: concurrent callers wait for the one `setUp`, and a failed
/// `setUp` is tried again by the next caller.
@Suite("App preparation")
struct AppPreparationTests {
    @Test func concurrentCallersWaitForTheOneSetUp() async throws {
        let record = SetUpRecord()
        let app = IntentApp(name: "Prepared\(UUID().uuidString.prefix(8))", intents: []) { try await record.setUp() }
        let performer = IntentPerformer(catalog: IntentCatalog(apps: [app]))
        let sawReady = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await performer.prepare(app)
                    return record.isReady
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(sawReady == Array(repeating: true, count: 8))
        #expect(record.calls == 1)
        try await performer.prepare(app)
        #expect(record.calls == 1)
    }

    @Test func aFailedSetUpIsTriedAgain() async throws {
        let record = SetUpRecord(failures: 1)
        let app = IntentApp(name: "Retried\(UUID().uuidString.prefix(8))", intents: []) { try await record.setUp() }
        let performer = IntentPerformer(catalog: IntentCatalog(apps: [app]))
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask { (try? await performer.prepare(app)) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        // The callers that shared the failed attempt all see its error.
        #expect(outcomes == Array(repeating: false, count: 4))
        #expect(record.calls == 1)
        #expect(!record.isReady)
        try await performer.prepare(app)
        #expect(record.isReady)
        #expect(record.calls == 2)
        try await performer.prepare(app)
        #expect(record.calls == 2)
    }
}
