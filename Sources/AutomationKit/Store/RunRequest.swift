import Foundation

/// A run of an automation asked for outside its schedule (`shortcuts automations run`, a
/// webhook), queued in the store for any live daemon to take (`FOR UPDATE SKIP LOCKED` in
/// PostgreSQL).
public struct RunRequest: Sendable, Codable, Equatable {
    public enum Status: String, Sendable, Codable {
        /// Waiting for a daemon.
        case queued
        /// Taken by a daemon, running.
        case running
        case succeeded
        case failed
        case cancelled
        /// The daemon that took it died before it ended.
        case interrupted
    }

    public var id: Int64
    /// The automation's store key.
    public var automationKey: String
    /// The inputs, a JSON object, or `nil`.
    public var inputs: String?
    /// `manual`, `webhook`…: recorded as the run's trigger.
    public var trigger: String
    public var status: Status
    public var requestedAt: Date
    /// The daemon that took it.
    public var daemonID: String?
    public var runID: String?
    public var takenAt: Date?
    public var endedAt: Date?
    /// The run's output as JSON, once it succeeded.
    public var output: String?
    public var error: String?

    public init(
        id: Int64, automationKey: String, inputs: String?, trigger: String, status: Status, requestedAt: Date, daemonID: String? = nil,
        runID: String? = nil, takenAt: Date? = nil, endedAt: Date? = nil, output: String? = nil, error: String? = nil
    ) {
        self.id = id
        self.automationKey = automationKey
        self.inputs = inputs
        self.trigger = trigger
        self.status = status
        self.requestedAt = requestedAt
        self.daemonID = daemonID
        self.runID = runID
        self.takenAt = takenAt
        self.endedAt = endedAt
        self.output = output
        self.error = error
    }
}
