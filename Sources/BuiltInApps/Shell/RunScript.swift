import Foundation
import IntentKit
import ProcessSpawning

extension ShellApp {
    /// Runs a script with an interpreter (`/bin/sh` unless `shell` names another, such as
    /// `bash` or `python3`) and returns its standard output, one trailing newline removed.
    ///
    /// The interpreter runs the script from `/dev/fd/3`, a file held in memory that nothing
    /// can find on disk (``ScriptFile``), with `arguments` after it (`$1`, `$2`… in a shell,
    /// `sys.argv[1:]` in Python).
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
            let output = try await request.run(
                arguments: Array(words.dropFirst()) + [ScriptFile.path] + arguments, passing: [scriptFile.descriptor])
            return .result(value: output)
        }
    }
}

/// A script held in memory for the length of a run, given to the interpreter as `/dev/fd/3`.
///
/// The script (with the secrets filled in) is never written to a folder: it lives in a
/// `memfd_create(2)` file, or where that is missing in a temporary file unlinked as soon as it
/// is open. Nothing of it is left behind when the run ends in any way, `kill -9` included.
final class ScriptFile {
    /// The descriptor the interpreter gets the script on.
    static let childDescriptor: Int32 = 3
    /// The path the interpreter reads the script from.
    static let path = "/dev/fd/\(childDescriptor)"

    /// The script's descriptor in this process (close-on-exec).
    let descriptor: Int32

    init(_ script: String) throws {
        let folder = FileManager.default.temporaryDirectory.path
        var descriptor = SpawnSetup.memoryFile(named: "shortcuts-script")
        if descriptor < 0 {
            var template = Array("\(folder)/shortcuts-script-XXXXXX".utf8CString)
            descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else {
                throw ShellApp.Error.scriptNotWritten(folder: folder, reason: String(cString: strerror(errno)))
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        self.descriptor = descriptor
        let bytes = Array(script.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let reason = String(cString: strerror(written < 0 ? errno : EIO))
                close(descriptor)
                throw ShellApp.Error.scriptNotWritten(folder: folder, reason: reason)
            }
            offset += written
        }
    }

    deinit {
        close(descriptor)
    }
}
