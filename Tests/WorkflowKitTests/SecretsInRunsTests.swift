import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// Signs in with a token: records the token it received, returns a text that holds it, and
/// fails with a message that holds it when asked to.
struct SignIn: AppIntent {
    static let title: LocalizedStringResource = "Sign In"
    @Parameter(title: "Token") var token: String
    @Parameter(title: "Fail", default: false) var fail: Bool
    init() {}

    /// The tokens received, in order.
    static let received = ReceivedTokens()

    func perform() async throws -> some IntentResult & ReturnsValue<String> & ProvidesDialog {
        Self.received.append(token)
        if fail { throw Refused(description: "the server refused the token \(token)") }
        return .result(value: "signed in with \(token)", dialog: "Using \(token)")
    }
}

struct Refused: Error, CustomStringConvertible {
    var description: String
}

final class ReceivedTokens: @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: [String] = []
    func append(_ token: String) { lock.withLock { tokens.append(token) } }
    var all: [String] { lock.withLock { tokens } }
}

/// `${env.NAME}` and `${secrets.NAME}` in runs and in validation, and masking of what runs write.
@Suite("Secrets in runs")
struct SecretsInRunsTests {
    static let token = "s3cr3t-token-value"
    let folder: URL
    let store: SecretStore
    let catalog = IntentCatalog(apps: [IntentApp(name: "Accounts", intents: [SignIn.self])])

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-runs-\(UUID().uuidString)")
        store = SecretStore(folder: folder)
        try store.set(Self.token, named: "TOKEN")
    }

    func load(_ text: String) throws -> Workflow {
        try WorkflowLoader.load(text: text, fileName: "secret.yaml")
    }

    final class Shown: @unchecked Sendable {
        private let lock = NSLock()
        private var texts: [String] = []
        func append(_ text: String) { lock.withLock { texts.append(text) } }
        var all: [String] { lock.withLock { texts } }
    }

    @Test func theIntentGetsTheValueAndEverythingWrittenIsMasked() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let workflow = try load(
            """
            steps:
              - id: session
                perform: Accounts.SignIn
                with: { token: "${secrets.TOKEN}" }
              - if: { value: "${secrets.TOKEN}", equalTo: \(Self.token) }
                then: [ { show: "the token is ${secrets.TOKEN}" } ]
            output: ${session}
            """)
        #expect(WorkflowValidator(catalog: catalog, secrets: store).validate(workflow).isEmpty)
        let history = try RunHistory(path: folder.appendingPathComponent("runs.sqlite").path)
        let shown = Shown()
        let runner = WorkflowRunner(catalog: catalog, history: history, secrets: store) { shown.append($0) }
        let before = SignIn.received.all.count
        let result = try await runner.run(workflow)

        #expect(SignIn.received.all.dropFirst(before).contains(Self.token))
        #expect(shown.all == ["Using ***", "the token is ***"])
        #expect(result.output == .string("signed in with ***"))
        #expect(!SecretMaskTests.texts(in: result.steps).contains { $0.contains(Self.token) })
        #expect(result.steps[0].inputs["token"] == .string("***"))

        let recorded = try history.run(matching: try #require(result.runID))
        #expect(recorded.run.output == "\"signed in with ***\"")
        #expect(!SecretMaskTests.texts(in: recorded.steps).contains { $0.contains(Self.token) })
        #expect(recorded.steps.contains { $0.dialog == "the token is ***" })
    }

    @Test func anErrorThatHoldsTheValueIsMaskedInTheThrownErrorAndTheHistory() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let workflow = try load(
            """
            steps:
              - perform: Accounts.SignIn
                with: { token: "${secrets.TOKEN}", fail: true }
            """)
        let history = try RunHistory(path: folder.appendingPathComponent("runs.sqlite").path)
        let runner = WorkflowRunner(catalog: catalog, history: history, secrets: store)
        let error = await #expect(throws: WorkflowRunError.self) { try await runner.run(workflow) }
        #expect(error?.rendered().contains("the server refused the token ***") == true)
        #expect(error?.rendered().contains(Self.token) == false)
        let failed = try #require(try history.runs(RunHistory.Filter(status: .failed)).first)
        #expect(failed.error?.contains("the token ***") == true)
        let steps = try history.run(matching: failed.id).steps
        #expect(steps.count == 1 && steps[0].error?.contains("***") == true)
        #expect(!SecretMaskTests.texts(in: steps).contains { $0.contains(Self.token) })
    }

    @Test func environmentVariablesAreReadAndAMissingOneIsNamed() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let workflow = try load("steps:\n  - show: \"home ${env.HOME}, ${env.HOME.count} letters\"\noutput: ${env.SHELL_NAME}\n")
        #expect(WorkflowValidator(catalog: catalog, secrets: store).validate(workflow).isEmpty)
        let environment = ["HOME": "/home/ana", "SHELL_NAME": "zsh"]
        let shown = Shown()
        let result = try await WorkflowRunner(catalog: catalog, environment: environment, secrets: nil) { shown.append($0) }.run(workflow)
        #expect(shown.all == ["home /home/ana, 9 letters"])
        #expect(result.output == .string("zsh"))

        let typo = try load("steps:\n  - show: \"${env.HOEM}\"\n")
        let error = await #expect(throws: WorkflowRunError.self) {
            try await WorkflowRunner(catalog: catalog, environment: environment, secrets: nil).run(typo)
        }
        #expect(error?.diagnostic.message == "environment variable 'HOEM' is not set")
        #expect(error?.diagnostic.help == "did you mean 'HOME'?")
        #expect(error?.diagnostic.location.column == 18)
    }

    @Test func aMissingSecretFailsValidationAndTheRunWithTheSameWords() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let workflow = try load("steps:\n  - show: \"${secrets.TOKNE}\"\n")
        let diagnostics = WorkflowValidator(catalog: catalog, secrets: store).validate(workflow)
        #expect(diagnostics.map(summary) == ["2:22: no secret 'TOKNE'"])
        #expect(diagnostics.first?.help == "did you mean 'TOKEN'?")
        #expect(diagnostics.first?.remedy == .storeSecret(name: "TOKNE"))
        // Without a store the validator leaves secrets to the run.
        #expect(WorkflowValidator(catalog: catalog).validate(workflow).isEmpty)

        let error = await #expect(throws: WorkflowRunError.self) {
            try await WorkflowRunner(catalog: catalog, secrets: store).run(workflow)
        }
        #expect(error?.diagnostic == diagnostics.first)
    }

    @Test func aSecretsFileOthersCanReadFailsValidationAndTheRunWithTheFix() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.url.path)
        let workflow = try load("steps:\n  - show: \"${secrets.TOKEN}\"\n")
        let diagnostics = WorkflowValidator(catalog: catalog, secrets: store).validate(workflow)
        let expected = "cannot read secret 'TOKEN': the secrets file \(store.url.path) can be read by other users (mode 0644)"
        #expect(diagnostics.map(\.message) == [expected])
        #expect(diagnostics.first?.help == "run `chmod 600 \(store.url.path)`")
        let error = await #expect(throws: WorkflowRunError.self) {
            try await WorkflowRunner(catalog: catalog, secrets: store).run(workflow)
        }
        #expect(error?.diagnostic.message == expected)
    }

    @Test func theRootsNeedANameAndCannotBeDefined() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let bare = try load("steps:\n  - show: \"${env}\"\n  - show: \"${secrets[0]}\"\n  - show: \"${secrets.TOKEN.count}\"\n")
        let found = WorkflowValidator(catalog: catalog, secrets: store).validate(bare)
        #expect(found.map(summary) == ["2:12: 'env' reads an environment variable by its name", "3:12: 'secrets' reads a secret by its name"])
        #expect(found.map(\.help) == ["write ${env.NAME}", "write ${secrets.NAME}"])
        for (yaml, message) in [
            ("steps:\n  - id: env\n    show: x\n", "'env' is a reserved name and cannot be used as a step id"),
            ("steps:\n  - set: secrets\n    to: 1\n", "'secrets' is a reserved name and cannot be used as a variable name"),
            ("input:\n  secrets: String\nsteps: []\n", "'secrets' is a reserved name and cannot be used as an input name")
        ] {
            #expect(diagnostics(loading: yaml).map(\.message) == [message], "\(yaml)")
        }
    }
}
