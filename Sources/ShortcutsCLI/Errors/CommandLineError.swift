import ArgumentParser
import Foundation
import WorkflowKit

/// An error as the command line reports it: what went wrong, how to fix it on this command
/// line, and the exit code.
///
/// Commands throw (this or any error, which ``init(_:argument:)`` translates); one function,
/// ``exit(_:)``, prints the error and ends the process.
///
/// ```swift
/// throw CommandLineError("no folder ./Workflows", help: ["run the command in the folder that holds Workflows/"])
/// ```
///
/// prints
///
/// ```
/// error: no folder ./Workflows
/// help: run the command in the folder that holds Workflows/
/// ```
struct CommandLineError: Error, CustomStringConvertible {
    /// What went wrong; its first line is the headline. Later lines (library `help:` lines) follow it.
    var message: String
    /// How to fix it on the command line, one `help:` line each.
    var help: [String] = []
    /// The process's exit status.
    var exitCode: Int32 = 1
    /// The position (in the arguments) of the argument the error is about, drawn with a caret.
    var argumentIndex: Int?
    /// Text already in the located style (`file:line:column: error: …`), printed as it is.
    var rendered: String?

    init(_ message: String, help: [String] = [], exitCode: Int32 = 1, argumentIndex: Int? = nil) {
        self.message = message
        self.help = help
        self.exitCode = exitCode
        self.argumentIndex = argumentIndex
    }

    init(rendered: String, exitCode: Int32 = 1) {
        self.message = rendered
        self.rendered = rendered
        self.exitCode = exitCode
    }

    /// The text printed on standard error, without a final newline.
    var description: String {
        if let rendered { return rendered }
        let helpLines = help.map { "help: " + $0 }.joined(separator: "\n")
        var text: String
        if let argumentIndex {
            text = CommandLineDiagnostic.render(
                message: message, arguments: Installation.shared.arguments,
                commandName: Installation.shared.commandName, argumentIndex: argumentIndex)
        } else {
            text = "error: " + message
        }
        if !helpLines.isEmpty { text += "\n" + helpLines }
        return text
    }

    /// Prints any error the way the command line does and returns the exit status: the one
    /// place that does.
    ///
    /// Usage errors, `--help` and `--version` are argument-parser's and print as it prints
    /// them (to the standard output when they are not failures); ``ExitCode`` is returned
    /// quietly (the command printed what it had to say).
    static func report(_ error: any Error) -> Int32 {
        if let code = error as? ExitCode { return code.rawValue }
        let output = CommandOutput.current
        let parserCode = ShortcutsCommand.exitCode(for: error)
        if !(error is CommandLineError), parserCode != ExitCode.failure {
            let message = ShortcutsCommand.fullMessage(for: error)
            if parserCode.isSuccess {
                if !message.isEmpty { output.print(message + "\n") }
            } else {
                output.writeError(message + "\n")
            }
            return parserCode.rawValue
        }
        let report = CommandLineError(error)
        output.writeError(report.description + "\n")
        return report.exitCode
    }
}

/// Draws an error under the command line argument it concerns:
///
/// ```
/// error: unknown parameter 'athorName' for intent 'Library.AddBook'
///   shortcuts perform Library.AddBook athorName=Delia
///                                     ^~~~~~~~~
/// help: did you mean 'authorName'?
/// ```
enum CommandLineDiagnostic {
    static func render(message: String, arguments: [String], commandName: String, argumentIndex: Int) -> String {
        var lines = message.components(separatedBy: "\n")
        let headline = "error: " + lines.removeFirst()
        guard arguments.indices.contains(argumentIndex) else { return ([headline] + lines).joined(separator: "\n") }
        let shown = [commandName] + arguments.map(quoted)
        let commandLine = "  " + shown.joined(separator: " ")
        let column = 2 + shown[..<(argumentIndex + 1)].map { $0.count + 1 }.reduce(0, +)
        let argument = arguments[argumentIndex]
        let markedLength = max(argument.split(separator: "=", maxSplits: 1).first.map(\.count) ?? argument.count, 1)
        let caret = CaretLine.draw(under: commandLine, columns: column..<column + markedLength)
        return ([headline, commandLine, caret] + lines).joined(separator: "\n")
    }

    private static func quoted(_ argument: String) -> String {
        argument.contains(" ") ? "\"\(argument)\"" : argument
    }
}
