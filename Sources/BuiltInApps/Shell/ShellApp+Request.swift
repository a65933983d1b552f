import Clockwork
import Foundation
import IntentKit
import ProcessSpawning

extension ShellApp {
    /// What both intents share: the environment, working folder, input, timeout and error
    /// policy of one program run, and how its outcome becomes text, details and errors.
    struct Request {
        /// The program as the user wrote it (`ls`, `/bin/sh`, `python3`).
        var command: String
        var environment: [String: String]
        var workingDirectory: String?
        var input: String?
        var timeout: Double?
        var failOnError: Bool

        /// How many lines of standard error an error message ends with.
        static let errorLinesInMessage = 5
        /// How much of the end of standard error the trace keeps, in characters.
        static let errorCharactersInTrace = 4_000

        /// Runs the program with arguments and returns its standard output, one trailing
        /// newline removed; records `status` (or `signal`), `stderr` and `duration` (seconds)
        /// for the trace.
        ///
        /// - Parameters:
        ///   - arguments: The program's arguments, passed as they are.
        ///   - passing: Descriptors the program gets as 3, 4, … (a script's file).
        /// - Returns: Standard output as text.
        /// - Throws: ``ShellApp/Error`` naming the command and the cause.
        func run(arguments: [String], passing: [Int32] = []) async throws -> String {
            let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            guard let path = SpawnSetup.lookUp(command, in: variables["PATH"]) else { throw Error.commandNotFound(command) }
            var child = ChildProcess(executable: path, arguments: arguments, clock: TaskClock.current)
            child.environment = variables
            child.passedDescriptors = passing
            child.workingDirectory = workingDirectory.map { HomeFolder.expandingTilde($0) }
            child.input = input.map { Array($0.utf8) }
            if let timeout {
                guard timeout > 0, timeout.isFinite else { throw Error.invalidTimeout(timeout) }
                child.timeout = .milliseconds(Int64(timeout * 1000))
            }
            let outcome: ChildProcess.Outcome
            do {
                outcome = try await child.run()
            } catch let error as ChildProcess.LaunchError {
                switch error {
                case .notFound: throw Error.commandNotFound(command)
                case .permissionDenied: throw Error.permissionDenied(command)
                case .workingDirectory(let folder): throw Error.noWorkingDirectory(folder)
                case .failed(_, let reason): throw Error.notStarted(command, reason: reason)
                }
            }
            record(outcome)
            switch outcome.stop {
            case .timedOut: throw Error.timedOut(command, seconds: timeout ?? 0)
            case .cancelled: throw Error.cancelled(command)
            case .outputTooLarge: throw Error.outputTooLarge(command, limit: child.outputLimit)
            case nil: break
            }
            let errorLines = Self.lastLines(of: outcome.standardErrorText, count: Self.errorLinesInMessage)
            switch outcome.termination {
            case .exited(0):
                break
            case .exited(127) where failOnError:
                throw Error.commandNotFoundInScript(command, errorLines: errorLines)
            case .exited(let status) where failOnError:
                throw Error.exited(command, status: Int(status), errorLines: errorLines)
            case .signaled(let signal) where failOnError:
                throw Error.killed(command, signal: Self.signalName(signal), errorLines: errorLines)
            default:
                break
            }
            var text = outcome.standardOutputText
            if text.hasSuffix("\n") { text.removeLast() }
            return text
        }

        /// Records the exit status (or signal), the end of standard error and the duration.
        private func record(_ outcome: ChildProcess.Outcome) {
            let execution = IntentExecution.current
            switch outcome.termination {
            case .exited(let status):
                execution.record(detail: "status", value: Int(status))
            case .signaled(let signal):
                execution.record(detail: "signal", value: Self.signalName(signal))
            }
            execution.record(detail: "stderr", value: String(outcome.standardErrorText.suffix(Self.errorCharactersInTrace)))
            let (seconds, attoseconds) = outcome.duration.components
            execution.record(detail: "duration", value: Double(seconds) + Double(attoseconds) / 1e18)
        }

        /// The last non-empty lines of a text.
        static func lastLines(of text: String, count: Int) -> String {
            text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.suffix(count).joined(separator: "\n")
        }

        /// `SIGKILL`, `SIGTERM`… for the signals a program is usually stopped by; `signal N` otherwise.
        static func signalName(_ signal: Int32) -> String {
            let names: [Int32: String] = [
                SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGABRT: "SIGABRT", SIGFPE: "SIGFPE",
                SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGBUS: "SIGBUS"
            ]
            return names[signal] ?? "signal \(signal)"
        }
    }
}
