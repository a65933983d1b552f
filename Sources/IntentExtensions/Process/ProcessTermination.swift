import Foundation

/// How an extension's process ended.
///
/// ```swift
/// ProcessTermination.signaled(11).description   // "exited with signal 11"
/// ```
public enum ProcessTermination: Sendable, Equatable, CustomStringConvertible {
    /// It exited with a status.
    case exited(Int32)
    /// A signal ended it.
    case signaled(Int32)
    /// It closed its standard output but went on running, so the engine ended it: `why` says
    /// how reading ended (`end of file`, or the read's error).
    case endedAfterClosingOutput(why: String)

    /// Reads a status from `waitpid`.
    init(waitStatus status: Int32) {
        if status & 0x7f == 0 {
            self = .exited((status >> 8) & 0xff)
        } else {
            self = .signaled(status & 0x7f)
        }
    }

    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signaled(let number): "exited with signal \(number)"
        case .endedAfterClosingOutput(let why): "closed its standard output (\(why)) but went on running, and was ended"
        }
    }
}
