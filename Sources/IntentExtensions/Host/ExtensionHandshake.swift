import Clockwork
import Foundation
import IntentKit

/// One start of an extension to read what it declares: spawn, `initialize`, `shutdown`, timed.
///
/// ```swift
/// let handshake = try await ExtensionHandshake.perform(name: "Greeter", executable: "/usr/local/bin/greeter")
/// handshake.metadata.apps.map(\.name)   // ["Greeter"]
/// handshake.initializeTime              // 0.04 seconds
/// ```
public struct ExtensionHandshake: Sendable {
    /// What the extension declared.
    public var metadata: AppMetadata
    /// From the start of the spawn to a running process.
    public var startTime: Duration
    /// From sending `initialize` to its answer.
    public var initializeTime: Duration
    /// From sending `shutdown` to the process's exit.
    public var shutdownTime: Duration

    /// Starts the extension, reads its metadata and stops it, timed by the configuration's
    /// clock.
    ///
    /// - Throws: ``ExtensionError`` saying what went wrong.
    public static func perform(
        name: String, executable: String, configuration: ExtensionHost.Configuration = ExtensionHost.Configuration()
    ) async throws -> ExtensionHandshake {
        let clock = configuration.clock
        let started = clock.now()
        let connection = try ExtensionConnection.start(
            name: name, executable: executable, environment: configuration.environment, clock: configuration.clock)
        let running = clock.now()
        let metadata: AppMetadata
        do {
            metadata = try await ExtensionHost.initialize(connection, configuration: configuration)
        } catch {
            connection.close(error as? ExtensionError ?? .stopped(extension: name))
            throw error
        }
        let initialized = clock.now()
        await connection.shutdown()
        return ExtensionHandshake(
            metadata: metadata, startTime: Self.between(started, running), initializeTime: Self.between(running, initialized),
            shutdownTime: clock.elapsed(since: initialized))
    }

    /// The time from `start` to `end`; never negative.
    private static func between(_ start: Date, _ end: Date) -> Duration {
        .seconds(max(0, end.timeIntervalSince(start)))
    }
}
