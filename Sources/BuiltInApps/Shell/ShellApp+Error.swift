import Foundation
import IntentKit

extension ShellApp {
    /// Why a program could not run or did not succeed; each case names the command.
    public enum Error: Swift.Error, CustomLocalizedStringResourceConvertible, Equatable {
        /// No executable by that name in `PATH`, or no file at that path.
        case commandNotFound(String)
        /// A script's shell reported status 127: a command inside it was not found.
        case commandNotFoundInScript(String, errorLines: String)
        /// The file is not executable.
        case permissionDenied(String)
        /// The working directory does not exist or is not a folder.
        case noWorkingDirectory(String)
        /// The program could not be started for another reason.
        case notStarted(String, reason: String)
        /// The program exited with a status other than 0.
        case exited(String, status: Int, errorLines: String)
        /// A signal ended the program.
        case killed(String, signal: String, errorLines: String)
        /// The timeout passed; the program and its children were ended.
        case timedOut(String, seconds: Double)
        /// The run was cancelled; the program and its children were ended.
        case cancelled(String)
        /// Standard output went past the limit; the program and its children were ended.
        case outputTooLarge(String, limit: Int)
        /// A timeout that is not a positive number of seconds.
        case invalidTimeout(Double)
        /// The script's temporary file could not be written.
        case scriptNotWritten(folder: String, reason: String)

        public var localizedStringResource: LocalizedStringResource {
            switch self {
            case .commandNotFound(let command):
                "\(command): command not found"
            case .commandNotFoundInScript(let command, let errorLines):
                "\(command) exited with status 127 (command not found): \(errorLines)"
            case .permissionDenied(let command):
                "\(command): permission denied (the file is not executable)"
            case .noWorkingDirectory(let folder):
                "the working directory \(folder) does not exist or is not a folder"
            case .notStarted(let command, let reason):
                "\(command) could not be started: \(reason)"
            case .exited(let command, let status, let errorLines):
                errorLines.isEmpty ? "\(command) exited with status \(status)" : "\(command) exited with status \(status): \(errorLines)"
            case .killed(let command, let signal, let errorLines):
                errorLines.isEmpty ? "\(command) was killed by \(signal)" : "\(command) was killed by \(signal): \(errorLines)"
            case .timedOut(let command, let seconds):
                "\(command) timed out after \(ShellApp.Error.format(seconds)) s; it was stopped with every process it started (SIGTERM, then SIGKILL)"
            case .cancelled(let command):
                "\(command) was stopped with every process it started because the run was cancelled"
            case .outputTooLarge(let command, let limit):
                "\(command) wrote more than \(limit / 1_048_576) MiB to standard output; it was stopped (redirect large output to a file)"
            case .invalidTimeout(let seconds):
                "the timeout \(ShellApp.Error.format(seconds)) is not a positive number of seconds"
            case .scriptNotWritten(let folder, let reason):
                "the script could not be written to a temporary file in \(folder): \(reason)"
            }
        }

        static func format(_ seconds: Double) -> String {
            seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
        }
    }
}
