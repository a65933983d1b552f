import ArgumentParser
import Foundation
import IntentKit

/// Options about the language dialogs are shown in.
struct LocaleOptions: ParsableArguments {
    @Option(name: .long, help: "The language of dialogs and titles, such as en or ja (default: $SHORTCUTS_LOCALE, else en).")
    var locale: String?

    var resolvedLocale: String {
        locale ?? ProcessEnvironment.current["SHORTCUTS_LOCALE"] ?? "en"
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

/// Reads `--answer name=value` arguments; the value is everything after the first `=`, and a
/// later pair for the same name wins. (Parameter values and inputs are read by
/// ``ParameterValues``, where a repeated name makes a list.)
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

/// How results are printed: `--output-type json` is kept as another spelling of `--json`.
enum OutputType: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}
