import Foundation

/// What ``RunHistory/begin(_:trigger:)`` recorded: when the runs started, and those that were
/// in the history already.
///
/// ```swift
/// let begun = try history.begin(due.map { (file: $0.file, name: $0.name, id: $0.runID) }, trigger: "automation")
/// let mine = due.filter { !begun.alreadyRecorded.contains($0.runID) }
/// ```
public struct BegunRuns: Sendable, Equatable {
    /// When the runs started: the same instant for all of them.
    public let startedAt: Date

    /// The identifiers of runs that another process recorded first (and settled): their
    /// records are left as they are, and they are not the caller's to perform.
    public let alreadyRecorded: Set<String>
}
