import Foundation
import GRDB
import Synchronization
import TextEmbedding

/// What a ``SearchableIndex`` keeps in memory for semantic search: the attached embedder, the
/// vectors read from the database, and the background indexing task.
final class SemanticSearchState: Sendable {
    private struct Contents {
        var embedder: (any TextEmbedder)?
        var matrix: VectorMatrix?
        var backgroundIndexing: Task<Void, Never>?
        var indexAgain = false
        var isIndexing = false
        var waitingToIndex: [CheckedContinuation<Void, Never>] = []
    }
    private let contents = Mutex(Contents())

    init() {}

    var embedder: (any TextEmbedder)? {
        get { contents.withLock { $0.embedder } }
        set { contents.withLock { $0.embedder = newValue } }
    }

    /// The vectors of the index for a model, read again when the stored generation has moved on.
    func matrix(storage: IndexStorage, model: String, dimension: Int, in db: Database) throws -> VectorMatrix? {
        guard
            let generation = try Int64.fetchOne(
                db, sql: "SELECT generation FROM spotlightSemanticIndex WHERE indexId = ?", arguments: [storage.indexId])
        else { return nil }
        if let cached = contents.withLock({ $0.matrix }), cached.model == model, cached.generation == generation,
            cached.dimension == dimension
        {
            return cached
        }
        let matrix = try VectorMatrix.read(
            indexId: storage.indexId, model: model, dimension: dimension, generation: generation, in: db)
        contents.withLock { $0.matrix = matrix }
        return matrix
    }

    func forgetVectors() {
        contents.withLock { $0.matrix = nil }
    }

    /// Starts `work` unless a background run is going on; a running one is told to run again.
    func startBackgroundIndexing(_ work: @escaping @Sendable () async -> Void) {
        contents.withLock { state in
            if state.backgroundIndexing != nil {
                state.indexAgain = true
                return
            }
            state.backgroundIndexing = Task { [self] in
                while true {
                    await work()
                    let again = contents.withLock { state in
                        if state.indexAgain {
                            state.indexAgain = false
                            return true
                        }
                        state.backgroundIndexing = nil
                        return false
                    }
                    if !again { return }
                }
            }
        }
    }

    /// Runs `work` when no other indexing run of this index is going on, so that two runs never
    /// embed the same pending items.
    func exclusively<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let proceed = contents.withLock { state in
                if state.isIndexing {
                    state.waitingToIndex.append(continuation)
                    return false
                }
                state.isIndexing = true
                return true
            }
            if proceed { continuation.resume() }
        }
        defer {
            let next = contents.withLock { state in
                if state.waitingToIndex.isEmpty {
                    state.isIndexing = false
                    return nil as CheckedContinuation<Void, Never>?
                }
                return state.waitingToIndex.removeFirst()
            }
            next?.resume()
        }
        return try await work()
    }

    /// Waits until background indexing has finished.
    func waitForBackgroundIndexing() async {
        while let task = contents.withLock({ $0.backgroundIndexing }) {
            await task.value
        }
    }
}
