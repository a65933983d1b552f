import Foundation

/// What went wrong finding, preparing or performing an intent. Each case carries what a tool
/// needs to say how to fix it in its own terms (a command line adds `help: pass --answer …`).
public enum IntentError: Error, CustomStringConvertible, Sendable {
    case unknownIntent(name: String, suggestion: String?)
    case ambiguousIntent(name: String, candidates: [String])
    case unknownEntity(name: String, suggestion: String?)
    case unknownParameter(intent: String, name: String, suggestion: String?, known: [String])
    case invalidValue(intent: String, parameter: String, reason: String)
    case entityNotFound(entity: String, text: String)
    case interaction(intent: String, InteractionError)
    case performFailed(intent: String, message: String)
    case tooManyRequests(intent: String, parameter: String)

    public var description: String {
        switch self {
        case .unknownIntent(let name, let suggestion):
            return "unknown intent '\(name)'" + Self.hint(suggestion)
        case .ambiguousIntent(let name, let candidates):
            return "the name '\(name)' is ambiguous\nhelp: write one of " + candidates.map { "'\($0)'" }.joined(separator: ", ")
        case .unknownEntity(let name, let suggestion):
            return "unknown entity type '\(name)'" + Self.hint(suggestion)
        case .unknownParameter(let intent, let name, let suggestion, let known):
            var text = "unknown parameter '\(name)' for intent '\(intent)'" + Self.hint(suggestion)
            if suggestion == nil { text += "\nhelp: its parameters are " + known.map { "'\($0)'" }.joined(separator: ", ") }
            return text
        case .invalidValue(let intent, let parameter, let reason):
            return "invalid value for parameter '\(parameter)' of '\(intent)': \(reason)"
        case .entityNotFound(let entity, let text):
            return "no \(entity) matches '\(text)'"
        case .interaction(let intent, let error):
            return "\(intent) \(error.description)"
        case .performFailed(let intent, let message):
            return "\(intent) failed: \(message)"
        case .tooManyRequests(let intent, let parameter):
            return "\(intent) asked for '\(parameter)' again after it was answered; giving up"
        }
    }

    private static func hint(_ suggestion: String?) -> String {
        suggestion.map { "\nhelp: did you mean '\($0)'?" } ?? ""
    }
}
