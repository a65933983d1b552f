import Foundation
import Testing

/// The trait of the tests that drive the `shortcuts` binary: each test case waits for one of
/// a few turns (one per core) and holds it while it runs.
///
/// Such a test spends most of its time waiting for processes it started; run all at once, they
/// would share the cores between dozens of processes and make each slow enough to fail the
/// tests that time what they do. Waiting for a turn suspends the test without holding one of
/// the cooperative pool's threads, so the in-process tests beside it keep them.
///
/// A test's time limit counts its wait for a turn too: the end-to-end suites allow six minutes.
///
/// ```swift
/// @Suite("Runs command", .endToEnd)
/// struct RunsCommandTests { … }
/// ```
public struct EndToEndTrait: SuiteTrait, TestTrait, TestScoping {
    /// The turns the end-to-end test cases share.
    static let turns = Turns(ProcessInfo.processInfo.activeProcessorCount)

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        // Each test case takes a turn; a suite does not hold one for its tests.
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Self.turns.taking { try await function() }
    }
}

extension Trait where Self == EndToEndTrait {
    /// Each test case runs in one of a few turns shared by the end-to-end tests.
    public static var endToEnd: Self { EndToEndTrait() }
}
