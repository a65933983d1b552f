import Foundation

/// What is wrong with the extension registry or one of its extensions.
public enum ExtensionRegistryError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The registry file is not valid JSON or not of the registry's shape.
    case invalidFile(path: String, line: Int?, column: Int?, reason: String)
    /// An extension's program is missing or cannot be read.
    case executableMissing(name: String, path: String, reason: String)
    /// No extension has this name.
    case unknownExtension(name: String, installed: [String], suggestion: String?)
    /// The name is taken by an installed extension.
    case nameTaken(name: String, executable: String)
    /// An app of the extension has the name of an installed app.
    case appNameTaken(app: String, owner: String)
    /// The file cannot be written.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidFile(let path, let line, let column, let reason):
            let location = line.map { ":\($0)" + (column.map { ":\($0)" } ?? "") } ?? ""
            return "\(path)\(location): error: the extension registry is not valid: \(reason)"
        case .executableMissing(let name, let path, let reason):
            return "extension \(name): its program \(path) cannot be used: \(reason)"
        case .unknownExtension(let name, let installed, let suggestion):
            let known = installed.isEmpty ? "no extension is installed" : "installed: \(installed.joined(separator: ", "))"
            return "no extension named '\(name)' (\(known))" + (suggestion.map { "\nhelp: did you mean '\($0)'?" } ?? "")
        case .nameTaken(let name, let executable):
            return "an extension named '\(name)' is installed already (\(executable))"
        case .appNameTaken(let app, let owner):
            return "the app '\(app)' is installed already (\(owner))"
        case .cannotWrite(let path, let reason):
            return "cannot write \(path): \(reason)"
        }
    }
}
