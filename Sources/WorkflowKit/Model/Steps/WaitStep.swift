/// `wait: duration` — pauses, such as `2s`, `500ms`, `1m` or `1h30m`.
///
/// ```swift
/// if case .wait(let wait) = step.kind { try await clock.sleep(for: wait.duration.value) }
/// ```
public struct WaitStep: Sendable, Hashable {
    /// How long to wait.
    public var duration: Located<Duration>
}
