import Clockwork
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
/// Each test case runs on a thread of its own (as ``OwnThreadTrait`` runs it): what it blocks
/// on, a process's exit or a server's start, holds none of the cooperative pool's threads.
///
/// The tests of a `.serialized` suite take their turns first: they run one after another, so
/// each waiting at the back of the queue would make the chain of them end far after the rest.
///
/// A test's time limit counts its wait for a turn too: the end-to-end suites allow six minutes.
///
/// `SHORTCUTS_TEST_TURNS` sets the number of turns (a core's count by default), and
/// `SHORTCUTS_TEST_TURN_TIMES=1` prints how long each test case held its turn, the time the
/// report of a test's duration leaves its wait for the turn out of:
///
/// ```sh
/// SHORTCUTS_TEST_TURN_TIMES=1 swift test --filter EndToEndTests | grep '^turn held' | sort -k3 -rn | head
/// ```
///
/// ```swift
/// @Suite("Runs command", .endToEnd)
/// struct RunsCommandTests { … }
/// ```
public struct EndToEndTrait: SuiteTrait, TestTrait, TestScoping {
    /// The turns the end-to-end test cases share.
    static let turns = Turns(
        ProcessInfo.processInfo.environment["SHORTCUTS_TEST_TURNS"].flatMap { Int($0) }.map { max(1, $0) }
            ?? ProcessInfo.processInfo.activeProcessorCount)

    /// Whether each test case's time in its turn is printed.
    static let printsTurnTimes = ProcessInfo.processInfo.environment["SHORTCUTS_TEST_TURN_TIMES"] == "1"

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        // Each test case takes a turn; a suite does not hold one for its tests.
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let inChain = test.traits.contains { $0 is ParallelizationTrait }
        try await Self.turns.taking(first: inChain) {
            let started = ContinuousClock.now
            defer {
                if Self.printsTurnTimes {
                    print("turn held \(String(format: "%.2f", (ContinuousClock.now - started).timeInterval)) s \(test.name)")
                }
            }
            try await runOnThreadOfItsOwn(function)
        }
    }
}

extension Trait where Self == EndToEndTrait {
    /// Each test case runs in one of a few turns shared by the end-to-end tests.
    public static var endToEnd: Self { EndToEndTrait() }
}
