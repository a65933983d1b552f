#if Web
    import Dispatch

    /// Runs blocking work (a store's query, which can wait seconds for a database that restarts;
    /// reading workflow files) on a queue of its own, so that it never holds one of the few threads
    /// Swift's concurrency and the server share.
    ///
    /// ```swift
    /// let runs = try await offload { try history.runs(filter) }
    /// ```
    func offload<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            blockingWork.async { continuation.resume(with: Swift.Result { try work() }) }
        }
    }

    private let blockingWork = DispatchQueue(label: "shortcuts.dashboard.blocking", attributes: .concurrent)
#endif
