import Foundation
import IntentKit

/// Why the secret store refused a request: the file's path and the reason in words, and, when
/// there is one, the command that fixes it.
///
/// ```swift
/// do {
///     _ = try store.secrets()
/// } catch {
///     print(error)          // the secrets file /home/ana/.local/share/shortcuts/secrets.json can be read by other users (mode 0644)
///     print(error.fix ?? "") // chmod 600 /home/ana/.local/share/shortcuts/secrets.json
/// }
/// ```
public enum SecretStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file gives other users access (`mode` is its permission bits).
    case exposed(path: String, mode: UInt32)
    /// The file exists but cannot be read: a folder, a symbolic link, no permission.
    case unreadable(path: String, reason: String)
    /// The file is not a secrets file this program wrote (not JSON of the expected shape).
    case damaged(path: String, reason: String)
    /// The file or its temporary copy cannot be written.
    case unwritable(path: String, reason: String)
    /// A name that does not follow ``SecretStore/namePattern``.
    case invalidName(String)
    /// An empty value.
    case emptyValue(name: String)
    /// No secret by this name; `stored` are the names there are.
    case unknownName(String, stored: [String])

    public var description: String {
        switch self {
        case .exposed(let path, let mode):
            let octal = String(mode & 0o777, radix: 8)
            let readable = mode & 0o044 != 0
            return "the secrets file \(path) \(readable ? "can be read" : "can be changed") by other users (mode 0\(octal))"
        case .unreadable(let path, let reason):
            return "cannot read the secrets file \(path): \(reason)"
        case .damaged(let path, let reason):
            return "the secrets file \(path) is damaged: \(reason)"
        case .unwritable(let path, let reason):
            return "cannot write the secrets file \(path): \(reason)"
        case .invalidName(let name):
            return "invalid secret name '\(name)': use letters, digits and '_', starting with a letter or '_'"
        case .emptyValue(let name):
            return "the value of secret '\(name)' is empty"
        case .unknownName(let name, _):
            return "no secret '\(name)'"
        }
    }

    /// What fixes it, when one command does: `chmod 600 PATH` for an exposed file, a close
    /// stored name for an unknown one.
    ///
    /// ```swift
    /// if let fix = error.fix { print("help: \(fix)") }
    /// ```
    public var fix: String? {
        switch self {
        case .exposed(let path, _):
            return "chmod 600 \(path)"
        case .unknownName(let name, let stored):
            return NameSuggestion.nearest(to: name, among: stored).map { "did you mean '\($0)'?" }
        default:
            return nil
        }
    }
}
