import Foundation

/// Checks `condition` every `interval` until it holds or `timeout` seconds pass, sleeping
/// between checks without holding a thread.
///
/// ```swift
/// let ran = try await eventually(timeout: 30) { try await shortcuts.run(["runs", "list"]).output.contains("succeeded") }
/// #expect(ran)
/// ```
///
/// - Returns: Whether the condition held before the time was up. A caller whose own checks
///   follow may ignore it.
@discardableResult
public func eventually(
    timeout: Double, every interval: Duration = .milliseconds(100), _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try await condition() { return true }
        if Date() >= deadline { return false }
        try await Task.sleep(for: interval)
    }
}
