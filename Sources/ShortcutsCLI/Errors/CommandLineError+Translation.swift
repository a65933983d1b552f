import Foundation
import IntentKit
import WorkflowKit

extension CommandLineError {
    /// Translates a library's error: the library says what went wrong, this adds how to fix it
    /// on this command line (with the tool's own name, so a tool named `greeter` says `greeter …`).
    ///
    /// - Parameters:
    ///   - error: Any error.
    ///   - argument: The position of the argument it is about, if any.
    init(_ error: any Error, argument: Int? = nil) {
        let command = Installation.shared.commandName
        switch error {
        case let error as CommandLineError:
            self = error
            if let argument { argumentIndex = argument }
        case let error as DiagnosticError:
            self.init(rendered: DiagnosticRenderer(sources: error.sources).render(error.diagnostics.map(Self.withHint)))
        case let error as WorkflowRunError:
            var diagnostic = Self.withHint(error.diagnostic)
            if let cause = error.cause, let hint = Self.hints(for: cause, command: command).first {
                diagnostic.help = diagnostic.help.map { "\($0)\nhelp: \(hint)" } ?? hint
            }
            self.init(rendered: DiagnosticRenderer(sources: error.sources).render(diagnostic))
        case is WorkflowCancelled:
            self.init(rendered: "cancelled", exitCode: 130)
        case let error as ShortcutsHomeError:
            self.init(error.description, help: ["set SHORTCUTS_HOME to a folder you can write (it is created if missing)"])
        case let error as SecretStoreError:
            self.init(error.description, help: Self.hints(for: error, command: command))
        default:
            if let database = DatabaseProblem.report(for: error) {
                self = database
            } else if let file = FileProblem(error) {
                self.init(file.description, help: file.hint.map { [$0] } ?? [])
            } else {
                self.init("\(error)", help: Self.hints(for: error, command: command))
            }
        }
        if let argument, rendered == nil { argumentIndex = argument }
    }

    /// How to fix an intent or interaction error on the command line.
    static func hints(for error: any Error, command: String) -> [String] {
        switch error {
        case let error as IntentError:
            switch error {
            case .unknownIntent: return ["`\(command) list intents` lists the installed intents"]
            case .unknownEntity: return ["`\(command) list entities` lists them"]
            case .interaction(_, let interaction): return hints(for: interaction, command: command)
            default: return []
            }
        case let error as SecretStoreError:
            switch error {
            case .exposed: return error.fix.map { ["run `\($0)`"] } ?? []
            case .unknownName:
                return (error.fix.map { [$0] } ?? []) + ["`\(command) secrets list` lists the stored secrets"]
            case .invalidName:
                return ["a name is made of letters, digits and '_' (\(SecretStore.namePattern)), such as GITHUB_TOKEN"]
            default: return []
            }
        case let error as InteractionError:
            guard case .cannotAsk(let question) = error else { return [] }
            switch question.kind {
            case "confirmation": return ["pass --yes, or --answer \(question.name)=yes"]
            case "choice":
                return ["pass --answer \(question.name)=CHOICE, one of: " + question.options.map { "'\($0)'" }.joined(separator: ", ")]
            default: return ["pass --answer \(question.name)=VALUE"]
            }
        default:
            return []
        }
    }

    /// A diagnostic with the command line's wording of its remedy added to its help.
    static func withHint(_ diagnostic: Diagnostic) -> Diagnostic {
        diagnostic.withCommandLineRemedy(commandName: Installation.shared.commandName)
    }
}
