import Foundation
import GRDB
import Testing

/// `shortcuts secrets`, `${secrets.NAME}` and `${env.NAME}` through the real binary: the file
/// on disk, the refusal of a file others can read, and a secret's value never written anywhere
/// a run writes.
@Suite("Secrets", .endToEnd)
struct SecretsTests {
    static let token = "s3cr3t-T0KEN-value"

    /// A binary whose home holds the secret `TOKEN`.
    func storingToken() async throws -> ShortcutsBinary {
        let shortcuts = try ShortcutsBinary()
        let stored = try await shortcuts.run(["secrets", "set", "TOKEN"], input: Self.token + "\n")
        #expect(stored.status == 0, "\(stored.error)")
        return shortcuts
    }

    func secretsFile(_ shortcuts: ShortcutsBinary) -> String {
        shortcuts.home.appendingPathComponent("secrets.json").path
    }

    func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// Everything a result wrote.
    func written(_ result: ShortcutsBinary.Result) -> String {
        result.output + result.error
    }

    @Test func setFromStandardInputListAndRemove() async throws {
        let shortcuts = try ShortcutsBinary()
        let empty = try await shortcuts.run(["secrets", "list"])
        #expect(empty.status == 0 && empty.output == "No secrets stored. `shortcuts secrets set NAME` stores one.\n")

        let stored = try await shortcuts.run(["secrets", "set", "TOKEN"], input: Self.token + "\n")
        #expect(stored.status == 0)
        #expect(stored.output == "Stored secret 'TOKEN' in \(secretsFile(shortcuts)).\n")
        #expect(!written(stored).contains(Self.token))
        #expect(try mode(secretsFile(shortcuts)) == 0o600)
        let file = try String(contentsOfFile: secretsFile(shortcuts), encoding: .utf8)
        #expect(file.contains("\"value\" : \"\(Self.token)\""), "one final line break is not part of the value")

        #expect(try await shortcuts.run(["secrets", "set", "TOKEN"], input: "replaced-value").output.hasPrefix("Replaced secret 'TOKEN'"))
        #expect(try await shortcuts.run(["secrets", "set", "OTHER_2"], input: "other-value").status == 0)
        let listed = try await shortcuts.run(["secrets", "list"])
        let rows = listed.output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows.map { $0.first } == ["NAME", "OTHER_2", "TOKEN"])
        #expect(!listed.output.contains("replaced-value") && !listed.output.contains("other-value"))
        let json = try await shortcuts.run(["secrets", "list", "--json"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: String]])
        #expect(items.map { $0["name"] } == ["OTHER_2", "TOKEN"])
        #expect(items.allSatisfy { $0.keys.sorted() == ["name", "setAt"] && (try? Date($0["setAt"] ?? "", strategy: .iso8601)) != nil })

        let unknown = try await shortcuts.run(["secrets", "remove", "TOKN"])
        #expect(unknown.status == 1)
        #expect(
            unknown.error == """
                error: no secret 'TOKN'
                  shortcuts secrets remove TOKN
                                           ^~~~
                help: did you mean 'TOKEN'?
                help: `shortcuts secrets list` lists the stored secrets

                """)
        #expect(try await shortcuts.run(["secrets", "remove", "TOKEN"]).output == "Removed secret 'TOKEN'.\n")
        #expect(try await shortcuts.run(["secrets", "list"]).output.split(separator: "\n").map { $0.prefix(7) } == ["NAME   ", "OTHER_2"])
        #expect(try mode(secretsFile(shortcuts)) == 0o600)
        let files = try FileManager.default.contentsOfDirectory(atPath: shortcuts.home.path)
        #expect(!files.contains { $0.hasPrefix("secrets.json.") }, "no temporary file is left: \(files)")
    }

    @Test func namesAreCompletedButNeverValues() async throws {
        let shortcuts = try await storingToken()
        #expect(try await shortcuts.run(["secrets", "set", "TOKEN_2"], input: "second-value").status == 0)
        for command in ["remove", "set"] {
            let words = ["shortcuts", "secrets", command, "TO"]
            let result = try await shortcuts.run(["---completion", "secrets", command, "--", "positional@0", "3", "2"] + words)
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output == "TOKEN\nTOKEN_2\n", "\(command)")
        }
    }

    @Test func emptyValuesAndBadNamesAreRefused() async throws {
        let shortcuts = try ShortcutsBinary()
        let empty = try await shortcuts.run(["secrets", "set", "TOKEN"], input: "\n")
        #expect(empty.status == 1)
        #expect(empty.error.hasPrefix("error: the value of secret 'TOKEN' is empty\nhelp: give the value on standard input"))
        let badName = try await shortcuts.run(["secrets", "set", "my-token"], input: "value")
        #expect(badName.status == 64)
        #expect(badName.error.contains("error: invalid secret name 'my-token': use letters, digits and '_', starting with a letter or '_'"))
        #expect(badName.error.contains("^~~~~~~~"))
        #expect(!FileManager.default.fileExists(atPath: secretsFile(shortcuts)), "nothing was stored")
        let short = try await shortcuts.run(["secrets", "set", "PIN"], input: "42")
        #expect(short.status == 0 && short.error.contains("note: a value shorter than 4 characters is masked only where it is a whole value"))
    }

    @Test func aFileOthersCanReadIsRefusedWithTheChmodFix() async throws {
        let shortcuts = try await storingToken()
        let path = secretsFile(shortcuts)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let expected = "the secrets file \(path) can be read by other users (mode 0640)"
        for arguments in [["secrets", "list"], ["secrets", "remove", "TOKEN"]] {
            let refused = try await shortcuts.run(arguments)
            #expect(refused.status == 1)
            #expect(refused.error == "error: \(expected)\nhelp: run `chmod 600 \(path)`\n", "\(arguments)")
        }
        let set = try await shortcuts.run(["secrets", "set", "OTHER"], input: "other-value")
        #expect(set.status == 1 && set.error.hasPrefix("error: \(expected)"))

        let run = try await shortcuts.run(["run", PackagePaths.fixture("Secrets/uses-token.yaml")], environment: ["USER_NAME": "ana"])
        #expect(run.status == 1)
        #expect(run.error.contains("error: cannot read secret 'TOKEN': \(expected)"))
        #expect(run.error.contains("help: run `chmod 600 \(path)`"))
        #expect(!written(run).contains(Self.token))
        #expect(try mode(path) == 0o640, "the file is left as it was")
    }

    @Test func aRunWritesTheValueNowhere() async throws {
        let shortcuts = try await storingToken()
        let run = try await shortcuts.run(["run", PackagePaths.fixture("Secrets/uses-token.yaml")], environment: ["USER_NAME": "ana"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasPrefix("Signing in with *** as ana\nAdded Where the Crawdads Sing to Library!\nNo books match ***.\n"))
        #expect(!written(run).contains(Self.token))
        let json = try await shortcuts.run(["run", PackagePaths.fixture("Secrets/uses-token.yaml"), "--json"], environment: ["USER_NAME": "ana"])
        let output = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: String])
        #expect(output == ["header": "Bearer ***", "book": "Where the Crawdads Sing", "user": "ana"])
        #expect(!written(json).contains(Self.token))

        let failed = try await shortcuts.run(["run", PackagePaths.fixture("Secrets/fails-with-token.yaml")])
        #expect(failed.status == 1)
        #expect(failed.error.contains("error: no Book matches '***'"))
        #expect(!written(failed).contains(Self.token))

        let listed = try await shortcuts.run(["runs", "list", "--json"])
        #expect(!listed.output.contains(Self.token))
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        #expect(runs.count == 3)
        for run in runs {
            let id = try #require(run["id"] as? String)
            let shown = try await shortcuts.run(["runs", "show", id])
            let shownJSON = try await shortcuts.run(["runs", "show", id, "--json"])
            #expect(shown.status == 0 && shownJSON.status == 0)
            #expect(shown.output.contains("***") && shownJSON.output.contains("***"))
            #expect(!written(shown).contains(Self.token) && !written(shownJSON).contains(Self.token))
        }
        // The value reached the Library as it is; only what is written is masked.
        let recommenders = try await DatabaseQueue(path: shortcuts.home.appendingPathComponent("library.sqlite").path).read { db in
            try String.fetchAll(db, sql: "SELECT recommendedBy FROM book")
        }
        #expect(recommenders.contains(Self.token))
    }

    @Test func aScriptsStandardErrorIsMaskedInTheErrorAndTheRecordedDetails() async throws {
        let shortcuts = try await storingToken()
        let run = try await shortcuts.run(["run", PackagePaths.fixture("Secrets/script-prints-token.yaml")])
        #expect(run.status == 1)
        #expect(run.error.contains("exited with status 3: token is ***"), "\(run.error)")
        #expect(!written(run).contains(Self.token))
        let listed = try await shortcuts.run(["runs", "list", "--json"])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        let id = try #require(runs.first?["id"] as? String)
        let shown = try await shortcuts.run(["runs", "show", id, "--json"])
        #expect(shown.output.contains("token is ***"))
        #expect(!written(shown).contains(Self.token))
    }

    @Test func environmentVariablesAreReadAndAMissingOneIsNamedWhenTheRunReadsIt() async throws {
        let shortcuts = try await storingToken()
        let workflow = try TemporaryFolder.make(prefix: "secrets-env").appendingPathComponent("env.yaml")
        try "steps:\n  - show: \"${env.HOME} ${env.GREETING}\"\n".write(to: workflow, atomically: true, encoding: .utf8)
        let run = try await shortcuts.run(["run", workflow.path], environment: ["HOME": "/home/ana", "GREETING": "hello"])
        #expect(run.status == 0 && run.output == "/home/ana hello\n", "\(run.error)")

        #expect(try await shortcuts.run(["validate", workflow.path], environment: ["GREETING": nil]).status == 0)
        let missing = try await shortcuts.run(["run", workflow.path], environment: ["GREETING": nil, "GREETINGS": "x"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("env.yaml:2:30: error: environment variable 'GREETING' is not set"))
        #expect(missing.error.contains("help: did you mean 'GREETINGS'?"))
    }

    @Test func aMissingSecretFailsValidationAndTheRunWithTheSameWords() async throws {
        let shortcuts = try await storingToken()
        let file = PackagePaths.fixture("Secrets/misspelled-secret.yaml")
        let expected = """
            \(file):3:29: error: no secret 'TOKNE'
                3 |   - show: "token: ${secrets.TOKNE}"
                  |                             ^~~~~
            help: did you mean 'TOKEN'?
            help: `shortcuts secrets set TOKNE` stores it

            """
        for arguments in [["validate", file], ["run", file]] {
            let result = try await shortcuts.run(arguments)
            #expect(result.status == 1)
            #expect(result.error == expected, "\(arguments)")
        }
        #expect(try await shortcuts.run(["runs", "list", "--json"]).output == "[\n\n]\n", "a workflow that does not validate does not run")

        // Automations are loaded without checking secrets (one may be stored before it is due),
        // so their run is what fails.
        let automation = try await shortcuts.run(["automations", "run", "missing-secret", "--workflows", PackagePaths.fixture("Secrets/Automations")])
        #expect(automation.status == 1)
        #expect(automation.error.contains("missing-secret.yaml:6:28: error: no secret 'TOKNE'"))
        #expect(automation.error.contains("help: did you mean 'TOKEN'?"))
        let failed = try await shortcuts.run(["runs", "list", "--status", "failed"])
        #expect(failed.output.contains("Missing secret"))
    }

    @Test func theDaemonMasksTheValueInItsLogAndItsRuns() async throws {
        let shortcuts = try await storingToken()
        let folder = PackagePaths.file(PackagePaths.fixture("Secrets/Automations")).path
        let daemon = try DaemonProcess.start(shortcuts, folder: folder, grace: "2s")
        let state = DaemonState(home: shortcuts.home)
        try await state.waitFor("the run at start", log: daemon.log) { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM claim WHERE status = 'failed'") ?? 0 > 0
        }
        #expect(daemon.stop() == 0, "\(daemon.log)")
        let log = daemon.log
        #expect(log.contains("Token at start: token ***"), "\(log)")
        #expect(log.contains("no Book matches '***'"), "\(log)")
        #expect(!log.contains(Self.token))
        let runs = try state.read("runs.sqlite") { db in try String.fetchAll(db, sql: "SELECT coalesce(error, '') FROM run") }
        #expect(runs.contains { $0.contains("no Book matches '***'") })
        let steps = try state.read("runs.sqlite") { db in
            try String.fetchAll(db, sql: "SELECT inputs || coalesce(output, '') || coalesce(dialog, '') || coalesce(error, '') FROM step")
        }
        #expect(!steps.isEmpty && !steps.contains { $0.contains(Self.token) })
    }

    /// `script` (util-linux) runs the command on a pseudo-terminal of its own; the value is
    /// typed once the prompt is shown, and the terminal's transcript must not hold it.
    @Test func noFormOfAValueReachesAnErrorTheOutputOrTheHistory() async throws {
        let shortcuts = try ShortcutsBinary()
        let key = "-----BEGIN KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nAB12==\n-----END KEY-----"
        #expect(try await shortcuts.run(["secrets", "set", "KEY"], input: key).status == 0)
        #expect(try await shortcuts.run(["secrets", "set", "PASS"], input: "p@ss word/+=xyz-1234").status == 0)
        let folder = try TemporaryFolder.make(prefix: "secret-forms")
        let file = folder.appendingPathComponent("forms.yaml")
        // A script whose error quotes the key's last lines; a parser that quotes the start of
        // what it could not read; a URL whose error writes the value percent-encoded.
        try """
        steps:
          - perform: Shell.RunScript
            continueOnError: true
            with:
              script: 'printf "%s\\n" "$K" | tail -3 >&2; exit 1'
              environment: { K: "${secrets.KEY}" }
          - perform: Data.ParseJSON
            continueOnError: true
            with: { text: "${secrets.KEY}" }
          - perform: Data.ParseJSON
            continueOnError: true
            with: { text: "${secrets.PASS}" }
          - perform: Web.GetContentsOfURL
            with: { url: "http://127.0.0.1:1/x?key=${secrets.PASS}" }
        """.write(to: file, atomically: true, encoding: .utf8)
        let result = try await shortcuts.run(["run", file.path], in: folder)
        #expect(result.status == 1)
        #expect(result.error.contains("key=***"), "\(result.error)")
        let listed = try await shortcuts.run(["runs", "list", "--json"])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        let id = try #require(runs.first?["id"] as? String)
        let shown = try await shortcuts.run(["runs", "show", id, "--json"])
        #expect(shown.output.contains("exited with status 1"), "\(shown.output)")
        let pieces = [
            "MIIEvQIBADANBgkq", "BKcwggSjAgEAAoIB", "AB12==", "END KEY", "p@ss", "p%40ss", "ss%20word", "ss+word", "word/+=xyz", "xyz-1234"
        ]
        for text in [result.output, result.error, shown.output] {
            for piece in pieces { #expect(!text.contains(piece), "'\(piece)' in \(text)") }
        }
    }

    @Test func onATerminalTheValueIsTypedWithoutEcho() throws {
        let shortcuts = try ShortcutsBinary()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "'\(shortcuts.executable.path)' secrets set TYPED", "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["SHORTCUTS_HOME"] = shortcuts.home.path
        process.environment = environment
        let typed = Pipe()
        let transcript = Pipe()
        process.standardInput = typed
        process.standardOutput = transcript
        process.standardError = transcript
        try process.run()
        let reader = TranscriptReader(transcript.fileHandleForReading.fileDescriptor)
        let prompt = reader.read(until: "(not shown): ", seconds: 10)
        #expect(prompt.hasSuffix("Value of secret TYPED (not shown): "), "\(prompt)")
        typed.fileHandleForWriting.write(Data("typed-value-123\n".utf8))
        let rest = reader.read(until: "Stored secret 'TYPED'", seconds: 10)
        if process.isRunning, !rest.contains("Stored secret") {
            Issue.record("still waiting after the value was typed: \(prompt + rest)")
            process.terminate()
        }
        try typed.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(prompt + rest)")
        #expect(!(prompt + rest).contains("typed-value-123"), "the value was echoed: \(prompt + rest)")
        let file = try String(contentsOfFile: secretsFile(shortcuts), encoding: .utf8)
        #expect(file.contains("\"value\" : \"typed-value-123\""))
    }
}

/// Reads what a process writes to a pipe, up to a marker or a time limit.
struct TranscriptReader {
    let descriptor: Int32

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// What was written, until it holds `marker`, the pipe ends, or `seconds` pass.
    func read(until marker: String, seconds: Int) -> String {
        var text = ""
        let deadline = Date().addingTimeInterval(Double(seconds))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !text.contains(marker), Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) == 1 else { continue }
            let count = Foundation.read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            text += String(decoding: buffer[..<count], as: UTF8.self)
        }
        return text
    }
}
