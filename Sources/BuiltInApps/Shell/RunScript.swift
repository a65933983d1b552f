import Foundation
import IntentKit

extension ShellApp {
    /// Runs a script with an interpreter (`/bin/sh` unless `shell` names another, such as
    /// `bash` or `python3`) and returns its standard output, one trailing newline removed.
    ///
    /// The script is written to a private temporary file that the interpreter runs, with
    /// `arguments` after it (`$1`, `$2`… in a shell, `sys.argv[1:]` in Python).
    ///
    /// ```yaml
    /// - perform: Shell.RunScript
    ///   with:
    ///     script: 'echo "$1 $(tr a-z A-Z)"'
    ///     arguments: [hello]
    ///     input: world
    /// ```
    public struct RunScript: AppIntent {
        public static let title: LocalizedStringResource = "Run Script"
        public static let description = IntentDescription(
            "Runs a script with a shell or another interpreter and returns what it writes to standard output.")

        @Parameter(title: "Script")
        public var script: String

        @Parameter(title: "Shell", default: "/bin/sh")
        public var shell: String

        @Parameter(title: "Input")
        public var input: String?

        @Parameter(title: "Arguments", default: [])
        public var arguments: [String]

        @Parameter(title: "Working Directory")
        public var workingDirectory: String?

        @Parameter(title: "Environment", default: [:])
        public var environment: [String: String]

        @Parameter(title: "Timeout")
        public var timeout: Double?

        @Parameter(title: "Fail on Error", default: true)
        public var failOnError: Bool

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Run \(\.$script) with \(\.$shell)") {
                \.$input
                \.$arguments
                \.$workingDirectory
                \.$environment
                \.$timeout
                \.$failOnError
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<String> {
            let words = shell.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let interpreter = words.first else { throw Error.commandNotFound(shell) }
            let request = ShellApp.Request(
                command: interpreter, environment: environment, workingDirectory: workingDirectory, input: input,
                timeout: timeout, failOnError: failOnError)
            let scriptFile = try ScriptFile(script)
            defer { scriptFile.remove() }
            let output = try await request.run(arguments: Array(words.dropFirst()) + [scriptFile.path] + arguments)
            return .result(value: output)
        }
    }
}

/// A script written to a file of its own (mode 0600, in a private folder) for the length of a run.
struct ScriptFile {
    let folder: URL
    var path: String { folder.appendingPathComponent("script").path }

    init(_ script: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shortcuts-script-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try Data(script.utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        } catch {
            throw ShellApp.Error.scriptNotWritten(folder: FileManager.default.temporaryDirectory.path, reason: "\(error.localizedDescription)")
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
