import ArgumentParser
import Foundation
import IntentKit

/// Options about the language dialogs are shown in.
struct LocaleOptions: ParsableArguments {
    @Option(name: .long, help: "The language of dialogs and titles, such as en or ja (default: $SHORTCUTS_LOCALE, else en).")
    var locale: String?

    var resolvedLocale: String {
        locale ?? ProcessInfo.processInfo.environment["SHORTCUTS_LOCALE"] ?? "en"
    }
}

/// Options that answer questions in advance, or forbid asking.
struct InteractionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Answer a question in advance: the parameter (or step) name and the answer.", valueName: "name=value"))
    var answer: [String] = []

    @Flag(name: .long, help: "Confirm every confirmation.")
    var yes = false

    @Flag(name: .long, help: "Never prompt: a question that was not answered in advance fails with the question.")
    var noInteraction = false

    func validate() throws {
        for answer in answer where !answer.contains("=") {
            throw ValidationError("--answer '\(answer)' must be written name=value")
        }
    }

    /// The interaction: scripted answers first, then the terminal if there is one.
    var interaction: any Interaction {
        let answers = NameValuePairs.parse(answer)
        let fallback: any Interaction = !noInteraction && TerminalInteraction.isAvailable ? TerminalInteraction() : NoInteraction()
        return ScriptedInteraction(answers: answers, confirmAll: yes, fallback: fallback)
    }
}

/// Reads `name=value` arguments (`--answer`, `--input`, parameter values); the value is
/// everything after the first `=`, and a later pair for the same name wins.
enum NameValuePairs {
    static func parse(_ pairs: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            values[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return values
    }
}

/// How results are printed.
enum OutputType: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// Prints errors in the tool's located style and exits with the right code.
enum Failure {
    /// Prints an error (with the argument it concerns, if any) to standard error and exits 1.
    static func exit(_ error: any Error, argument: Int? = nil) -> Never {
        var message = "\(error)"
        if let argument {
            message = CommandLineDiagnostic.render(message: message, arguments: Installation.shared.arguments,
                                                   commandName: Installation.shared.commandName, argumentIndex: argument)
        } else {
            message = "error: " + message
        }
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(1)
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
        let caret = String(repeating: " ", count: column) + "^" + String(repeating: "~", count: markedLength - 1)
        return ([headline, commandLine, caret] + lines).joined(separator: "\n")
    }

    private static func quoted(_ argument: String) -> String {
        argument.contains(" ") ? "\"\(argument)\"" : argument
    }
}

/// Turns signals (Ctrl-C, SIGTERM) into calls of a handler instead of the default exit.
enum SignalHandling {
    /// Listens to signals and returns once the listening has begun, so that a signal sent
    /// after this call is never lost: a dispatch source is registered asynchronously, and a
    /// signal that comes before the registration would otherwise be ignored.
    ///
    /// - Parameters:
    ///   - signals: The signals, such as `[SIGINT]`.
    ///   - handler: Called, on a global queue, with each signal received.
    /// - Returns: The sources; cancel them to stop listening.
    static func listen(to signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
        let registered = DispatchSemaphore(value: 0)
        let sources = signals.map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setRegistrationHandler { registered.signal() }
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
        for _ in sources { _ = registered.wait(timeout: .now() + 2) }
        return sources
    }
}
