import Foundation
import WorkflowKit

/// A due time a daemon asks to claim, with what decides its fate in the store: the
/// automation's `overlap:` is applied there, against every daemon's runs of the automation,
/// with the automation's row locked, so that it holds across machines.
public struct ClaimRequest: Sendable {
    /// The automation's store key (``AutomationStore/key(for:)``).
    public var automationKey: String
    /// Whole seconds since 1970.
    public var dueTime: Int64
    public var overlap: AutomationBlock.Overlap
    /// One of several missed due times that `catchUp: all` runs one after another.
    public var isSequentialCatchUp: Bool
    public var isCatchUp: Bool
    /// `true` for the record of due times missed while no daemon ran (status `missed`,
    /// never run).
    public var isMissed: Bool
    /// The run the claim reserves when it starts or queues.
    public var runID: String
    public var note: String?

    public init(
        automationKey: String, dueTime: Int64, overlap: AutomationBlock.Overlap, isSequentialCatchUp: Bool = false,
        isCatchUp: Bool = false, isMissed: Bool = false, runID: String, note: String? = nil
    ) {
        self.automationKey = automationKey
        self.dueTime = dueTime
        self.overlap = overlap
        self.isSequentialCatchUp = isSequentialCatchUp
        self.isCatchUp = isCatchUp
        self.isMissed = isMissed
        self.runID = runID
        self.note = note
    }
}

/// What the store decided for a ``ClaimRequest``.
public enum ClaimResult: Sendable {
    /// Another daemon claimed the due time first: this one forgets it.
    case lost
    /// This daemon claimed it: the claim's status says whether it starts now (`running`),
    /// waits (`queued`), or is recorded only (`skipped`, `missed`). `replaced` are the claims of
    /// the automation it cancels (`overlap: replace`): running ones are asked to stop (their
    /// daemons find out through ``AutomationStore/cancellations(for:)``), queued ones are
    /// cancelled at once.
    case claimed(Claim, replaced: [Claim])
}
