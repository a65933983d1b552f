import Foundation

/// Asks a person for what an intent or workflow needs: a value, a choice among several,
/// a confirmation.
///
/// IntentKit ships three: ``TerminalInteraction`` (prompts on a terminal),
/// ``ScriptedInteraction`` (answers given in advance, `--answer name=value` and `--yes`), and
/// ``NoInteraction`` (fails with the question it could not ask). Automations never prompt.
///
/// ```swift
/// let interaction = ScriptedInteraction(answers: ["authorName": "Delia Owens"], confirmAll: true)
/// ```
public protocol Interaction: Sendable {
    /// Asks for a value.
    ///
    /// - Parameter request: The question and the value's name and type.
    /// - Returns: The answer, which the engine converts to the parameter's type.
    /// - Throws: ``InteractionError/cannotAsk(_:)`` when the question cannot be asked.
    func requestValue(_ request: ValueRequest) async throws -> IntentValue

    /// Asks to choose one of several options.
    ///
    /// - Parameter request: The question and the options' titles.
    /// - Returns: The index of the chosen option.
    /// - Throws: ``InteractionError`` when no choice can be made.
    func requestChoice(_ request: ChoiceRequest) async throws -> Int

    /// Asks to confirm.
    ///
    /// - Parameter request: The question, and what is about to happen.
    /// - Returns: Whether the person confirmed.
    /// - Throws: ``InteractionError/cannotAsk(_:)`` when the question cannot be asked.
    func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool
}

/// A question for a value.
public struct ValueRequest: Sendable, Hashable {
    /// The name the answer is given under (`--answer name=value`): a parameter or step name.
    public var name: String
    /// The question.
    public var question: String
    /// The type of the expected answer.
    public var type: IntentValueType
    /// Values to offer, when the type has a known set of them (enum cases, suggested entities).
    public var suggestions: [String]

    public init(name: String, question: String, type: IntentValueType, suggestions: [String] = []) {
        self.name = name
        self.question = question
        self.type = type
        self.suggestions = suggestions
    }
}

/// A question with a list of options, for disambiguation and menus.
public struct ChoiceRequest: Sendable, Hashable {
    /// The name the answer is given under: a parameter or step name.
    public var name: String
    /// The question.
    public var question: String
    /// The options' titles, in order.
    public var options: [String]

    public init(name: String, question: String, options: [String]) {
        self.name = name
        self.question = question
        self.options = options
    }
}

/// A yes-or-no question before something happens.
public struct ConfirmationRequest: Sendable, Hashable {
    /// The name the answer is given under: the parameter's name, or `confirm` for an intent.
    public var name: String
    /// The question.
    public var question: String
    /// A rendering of what is about to happen (a snippet), if any.
    public var preview: String?

    public init(name: String, question: String, preview: String? = nil) {
        self.name = name
        self.question = question
        self.preview = preview
    }
}

/// Why an interaction could not give an answer.
public enum InteractionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Nobody can be asked: the question is given so it can be answered in advance.
    case cannotAsk(Question)
    /// The answer given does not fit the question.
    case invalidAnswer(name: String, answer: String, reason: String)
    /// The person declined a confirmation.
    case declined(question: String)
    /// Input ended before an answer was given.
    case endOfInput(question: String)

    /// A question that could not be asked: what a tool needs to say how to answer it in advance.
    public struct Question: Sendable, Equatable {
        /// The name to answer under.
        public var name: String
        /// The question.
        public var text: String
        /// What kind of question it is: `value`, `choice` or `confirmation`.
        public var kind: String
        /// The options, for choices.
        public var options: [String]
    }

    public var description: String {
        switch self {
        case .cannotAsk(let question):
            // How to answer in advance is the tool's to say (a command line: `--answer name=VALUE`).
            return "needs an answer but cannot ask: \"\(question.text)\""
        case .invalidAnswer(let name, let answer, let reason):
            return "the answer '\(answer)' for '\(name)' cannot be used: \(reason)"
        case .declined(let question):
            return "not confirmed: \"\(question)\""
        case .endOfInput(let question):
            return "input ended before an answer to \"\(question)\""
        }
    }
}

/// Never asks: every question fails with ``InteractionError/cannotAsk(_:)``, naming the
/// question so it can be answered in advance. Used by `--no-interaction` and automations.
///
/// ```swift
/// let performer = IntentPerformer(app: library, interaction: NoInteraction())
/// ```
public struct NoInteraction: Interaction {
    public init() {}

    public func requestValue(_ request: ValueRequest) async throws -> IntentValue {
        throw InteractionError.cannotAsk(.init(name: request.name, text: request.question, kind: "value", options: request.suggestions))
    }

    public func requestChoice(_ request: ChoiceRequest) async throws -> Int {
        throw InteractionError.cannotAsk(.init(name: request.name, text: request.question, kind: "choice", options: request.options))
    }

    public func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
        throw InteractionError.cannotAsk(.init(name: request.name, text: request.question, kind: "confirmation", options: []))
    }
}
