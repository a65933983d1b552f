import Foundation

/// Asks on a terminal: prints the question to standard error and reads a line from standard
/// input. Choices are numbered; confirmations take `y` or `n`.
///
/// ```swift
/// let interaction: any Interaction = TerminalInteraction.isAvailable ? TerminalInteraction() : NoInteraction()
/// ```
public struct TerminalInteraction: Interaction {
    private let input: @Sendable () -> String?
    private let output: @Sendable (String) -> Void

    /// Creates an interaction on standard input and standard error.
    public init() {
        self.init(
            input: { readLine(strippingNewline: true) },
            output: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    /// Creates an interaction on other streams, for tests.
    ///
    /// - Parameters:
    ///   - input: Reads one line, or `nil` at the end of input.
    ///   - output: Writes prompt text.
    public init(input: @escaping @Sendable () -> String?, output: @escaping @Sendable (String) -> Void) {
        self.input = input
        self.output = output
    }

    /// Whether standard input and standard error are terminals.
    public static var isAvailable: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1
    }

    /// Asks for a value; suggestions (enum cases, suggested entities) are numbered, and
    /// answering a number picks that suggestion.
    public func requestValue(_ request: ValueRequest) async throws -> IntentValue {
        var prompt = request.question + "\n"
        for (index, suggestion) in request.suggestions.enumerated() {
            prompt += "  \(index + 1). \(suggestion)\n"
        }
        output(prompt + "> ")
        guard let line = input() else { throw InteractionError.endOfInput(question: request.question) }
        if let number = Int(line.trimmingCharacters(in: .whitespaces)), request.suggestions.indices.contains(number - 1) {
            return .string(request.suggestions[number - 1])
        }
        return .string(line)
    }

    public func requestChoice(_ request: ChoiceRequest) async throws -> Int {
        var text = request.question + "\n"
        for (index, option) in request.options.enumerated() {
            text += "  \(index + 1). \(option)\n"
        }
        output(text)
        while true {
            output("> ")
            guard let line = input() else { throw InteractionError.endOfInput(question: request.question) }
            if let index = ChoiceMatching.index(of: line, in: request.options) { return index }
            output("Type a number from 1 to \(request.options.count), or an option's name.\n")
        }
    }

    public func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
        if let preview = request.preview { output(preview + "\n") }
        while true {
            output(request.question + " [y/n] ")
            guard let line = input() else { throw InteractionError.endOfInput(question: request.question) }
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "y", "yes": return true
            case "n", "no": return false
            default: output("Please answer y or n.\n")
            }
        }
    }
}
