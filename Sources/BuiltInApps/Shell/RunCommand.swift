import IntentKit

extension ShellApp {
    /// Runs a program with a list of arguments, without a shell: each argument reaches the
    /// program as it is written (spaces, quotes, `$` and `*` included). A name without a slash
    /// is looked up in `PATH`.
    ///
    /// ```yaml
    /// - perform: Shell.RunCommand
    ///   with:
    ///     executable: grep
    ///     arguments: ["-c", "it's here", notes.txt]
    /// ```
    public struct RunCommand: AppIntent {
        public static let title: LocalizedStringResource = "Run Command"
        public static let description = IntentDescription(
            "Runs a program with arguments, without a shell, and returns what it writes to standard output.")

        @Parameter(title: "Executable")
        public var executable: String

        @Parameter(title: "Arguments", default: [])
        public var arguments: [String]

        @Parameter(title: "Input")
        public var input: String?

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
            Summary("Run \(\.$executable)") {
                \.$arguments
                \.$input
                \.$workingDirectory
                \.$environment
                \.$timeout
                \.$failOnError
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<String> {
            let request = ShellApp.Request(
                command: executable, environment: environment, workingDirectory: workingDirectory, input: input,
                timeout: timeout, failOnError: failOnError)
            return .result(value: try await request.run(arguments: arguments))
        }
    }
}
