import Clockwork
import Foundation
import Testing

/// Outside the clock seam nothing in Sources reads the time or waits for it: every such read
/// goes through an ``EngineClock`` the code was given, so that a test can give a manual one.
///
/// Benchmarks and the crash test's child program are not part of the engine and measure or
/// wait on real time by design; they are not scanned.
@Suite("The clock seam")
struct ClockSeamTests {
    /// What reads the time or waits for it, written directly.
    static let forbidden = [
        "Date()", "Date(timeIntervalSinceNow", "timeIntervalSinceNow", "Thread.sleep", "Task.sleep", "usleep(", "nanosleep(",
        "ContinuousClock", "SuspendingClock", "DispatchTime.now", "asyncAfter(", "makeTimerSource",
        "CFAbsoluteTimeGetCurrent", "clock_gettime", "gettimeofday", "wait(timeout:"
    ]

    /// `NSCondition.wait(until:)`, whose one argument is a deadline on the real clock (the
    /// clock's own `wait(on:until:)` and waits that take a clock have more).
    nonisolated(unsafe) static let conditionWait = /\.wait\(until: [^,()]+(\([^()]*\))?[^,()]*\)/

    /// The folders of Sources that are not the engine.
    static let unscanned: Set<String> = ["Clockwork", "shortcuts-bench", "spotlight-bench", "spotlight-crash-child"]

    @Test("nothing in Sources outside Clockwork reads the time or sleeps")
    func noDirectTimeReads() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        var found: [String] = []
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let file as URL in enumerator where file.pathExtension == "swift" {
            let relative = String(file.path.dropFirst(sources.path.count + 1))
            guard let module = relative.split(separator: "/").first, !Self.unscanned.contains(String(module)) else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                if let pattern = Self.forbidden.first(where: { code.contains($0) }) {
                    found.append("Sources/\(relative):\(index + 1): \(pattern): \(code)")
                } else if code.firstMatch(of: Self.conditionWait) != nil {
                    found.append("Sources/\(relative):\(index + 1): a condition's timed wait: \(code)")
                }
            }
        }
        #expect(found.isEmpty, "read the time and wait through the EngineClock the type is given:\n\(found.joined(separator: "\n"))")
    }
}
