import Foundation
import IntentKit

/// What a run reads from outside its workflow — environment variables (`${env.NAME}`) and
/// stored secrets (`${secrets.NAME}`) — and the mask of every stored secret value.
///
/// The secrets file is read once, when the run starts; the mask hides every value stored then,
/// not only those the run reads, so a value that reaches a trace some other way (a script that
/// prints a token, an environment variable holding the same value) is hidden too.
struct RunEnvironment: Sendable {
    /// The environment variables.
    let variables: [String: String]
    /// The secrets file as the run found it, or `nil` when the runner has no store.
    let secrets: SecretStore.Snapshot?

    init(variables: [String: String], store: SecretStore?) {
        self.variables = variables
        secrets = store?.snapshot()
    }

    /// What hides the stored values.
    var mask: SecretMask { secrets?.mask ?? .none }

    /// The value of `${root.name}`.
    ///
    /// - Throws: ``WorkflowRunError`` at the name: a variable that is not set, a secret that
    ///   does not exist, a secrets file that cannot be used.
    func value(of root: ReservedRoot, named name: Located<String>, sources: [String: String]) throws -> IntentValue {
        switch root {
        case .env:
            guard let value = variables[name.value] else {
                throw WorkflowRunError(
                    "environment variable '\(name.value)' is not set", at: name.location,
                    help: NameSuggestion.nearest(to: name.value, among: Array(variables.keys)).map { "did you mean '\($0)'?" },
                    sources: sources)
            }
            return .string(value)
        case .secrets:
            guard let secrets else {
                throw WorkflowRunError("this program keeps no secrets, so '\(name.value)' cannot be read", at: name.location, sources: sources)
            }
            if let problem = secrets.problem {
                throw Self.error(reading: name, problem: problem, sources: sources)
            }
            guard let secret = secrets.secrets[name.value] else {
                throw Self.unknownSecret(name, stored: secrets.secrets.keys.sorted(), sources: sources)
            }
            return .string(secret.value)
        }
    }

    /// `no secret 'NAME'`, with a close stored name and the remedy of storing it.
    static func unknownSecret(_ name: Located<String>, stored: [String], sources: [String: String]) -> WorkflowRunError {
        let problem = SecretStoreError.unknownName(name.value, stored: stored)
        var error = WorkflowRunError(problem.description, at: name.location, help: problem.fix, sources: sources)
        error.diagnostic.remedy = .storeSecret(name: name.value)
        return error
    }

    /// `cannot read secret 'NAME': …`, with the fix when one command fixes it.
    static func error(reading name: Located<String>, problem: SecretStoreError, sources: [String: String]) -> WorkflowRunError {
        WorkflowRunError(
            "cannot read secret '\(name.value)': \(problem)", at: name.location,
            help: problem.fix.map { "run `\($0)`" }, sources: sources)
    }
}
