import Foundation
import Synchronization

/// What an intent runs with: who answers its questions and which locale it speaks.
///
/// The engine sets it for each run; `$parameter.requestValue`, `requestDisambiguation` and
/// `requestConfirmation` read it.
///
/// ```swift
/// try await IntentExecution.$current.withValue(IntentExecution(interaction: ScriptedInteraction(confirmAll: true))) {
///     try await performer.perform(AddBook.self, arguments: ["title": "Emma"])
/// }
/// ```
public struct IntentExecution: Sendable {
    /// Who answers questions.
    public var interaction: any Interaction
    /// The locale and strings for dialogs.
    public var localization: Localization
    /// Where ``record(detail:value:)`` writes; details are dropped when `nil`.
    public var detailLog: IntentDetailLog?

    public init(interaction: any Interaction, localization: Localization = Localization(), detailLog: IntentDetailLog? = nil) {
        self.interaction = interaction
        self.localization = localization
        self.detailLog = detailLog
    }

    /// Records a detail of what the intent did, for the run's trace (a command's exit status,
    /// the end of its standard error, how long it took). A detail recorded again replaces the
    /// earlier value; details are kept when the intent then fails.
    ///
    /// ```swift
    /// IntentExecution.current.record(detail: "status", value: 2)
    /// ```
    ///
    /// - Parameters:
    ///   - detail: The detail's name.
    ///   - value: Its value.
    public func record(detail: String, value: some IntentValueConvertible) {
        detailLog?.record(detail, value.intentValue)
    }

    /// The execution of the current task (no interaction, English, when none was set).
    @TaskLocal public static var current = IntentExecution(interaction: NoInteraction())
}

extension IntentExecution {
    /// The folder that relative paths given to intents are resolved against: the folder of
    /// the workflow file being run, set by the workflow runner; `nil` outside a workflow (the
    /// process's current directory then applies).
    ///
    /// ```swift
    /// let base = IntentExecution.workingDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    /// ```
    @TaskLocal public static var workingDirectory: URL?
}

/// The details intents record with ``IntentExecution/record(detail:value:)``, shared by an
/// intent and whoever performs it.
///
/// ```swift
/// let log = IntentDetailLog()
/// var performer = IntentPerformer(catalog: catalog)
/// performer.detailLog = log
/// _ = try? await performer.perform("Shell.RunCommand", arguments: ["executable": .string("false")])
/// log.details["status"]   // .int(1), even though the intent failed
/// ```
public final class IntentDetailLog: Sendable {
    private let entries = Mutex<[String: IntentValue]>([:])

    public init() {}

    /// Every detail recorded, by name.
    public var details: [String: IntentValue] { entries.withLock { $0 } }

    func record(_ name: String, _ value: IntentValue) {
        entries.withLock { $0[name] = value }
    }
}

/// Thrown by `throw $parameter.requestValue(...)` inside `perform()`: the engine asks for the
/// parameter's value and performs the intent again with the answer.
public struct ParameterValueRequest: Error, CustomStringConvertible, Sendable {
    /// The parameter's Swift name.
    public var parameterName: String
    /// The question.
    public var question: String
    /// The parameter's type.
    public var type: IntentValueType

    public var description: String { "needs a value for '\(parameterName)': \(question)" }
}

extension IntentParameter {
    /// An error that, thrown from `perform()`, asks for this parameter's value and runs the
    /// intent again with the answer.
    ///
    /// ```swift
    /// if books.count > 1 && authorName == nil {
    ///     throw $authorName.requestValue("Who wrote the book?")
    /// }
    /// ```
    /// - Parameter dialog: The question; the parameter's `requestValueDialog` or a question
    ///   made from its title when `nil`.
    /// - Returns: The error to throw.
    public func requestValue(_ dialog: IntentDialog? = nil) -> ParameterValueRequest {
        ParameterValueRequest(
            parameterName: parameterName,
            question: QuestionText.valueQuestion(dialog: dialog ?? storage.requestValueDialog, title: storage.title, type: Value.intentValueType),
            type: Value.intentValueType)
    }

    /// Asks to choose one of several values for this parameter.
    ///
    /// ```swift
    /// let author = try await $authorName.requestDisambiguation(among: ["A", "B"], dialog: "Which author?")
    /// ```
    /// - Parameters:
    ///   - options: The values to choose from.
    ///   - dialog: The question.
    /// - Returns: The chosen value.
    /// - Throws: ``InteractionError`` when no choice can be made.
    public func requestDisambiguation(among options: [Value], dialog: IntentDialog? = nil) async throws -> Value {
        try await choose(among: options, dialog: dialog)
    }

    /// Asks to choose one of several values for this optional parameter.
    ///
    /// - Parameters:
    ///   - options: The values to choose from.
    ///   - dialog: The question.
    /// - Returns: The chosen value.
    /// - Throws: ``InteractionError`` when no choice can be made.
    public func requestDisambiguation<Wrapped: IntentValueConvertible>(
        among options: [Wrapped], dialog: IntentDialog? = nil
    ) async throws -> Wrapped where Value == Wrapped? {
        try await choose(among: options, dialog: dialog)
    }

    private func choose<Option: IntentValueConvertible>(among options: [Option], dialog: IntentDialog?) async throws -> Option {
        let execution = IntentExecution.current
        let defaultQuestion: LocalizedStringResource = "Which \(storage.title)?"
        let question = (dialog?.full ?? defaultQuestion).resolved(in: execution.localization)
        let request = ChoiceRequest(name: parameterName, question: question, options: options.map(\.intentValue.displayText))
        let index = try await execution.interaction.requestChoice(request)
        return options[index]
    }

    /// Asks to confirm a value of this parameter.
    ///
    /// ```swift
    /// guard try await $book.requestConfirmation(for: book, dialog: "Open \(book)?") else { return .result() }
    /// ```
    /// - Parameters:
    ///   - value: The value to confirm.
    ///   - dialog: The question.
    /// - Returns: Whether it was confirmed.
    /// - Throws: ``InteractionError`` when the question cannot be asked.
    public func requestConfirmation(for value: Value, dialog: IntentDialog? = nil) async throws -> Bool {
        try await confirm(value.intentValue, dialog: dialog)
    }

    /// Asks to confirm a value of this optional parameter.
    ///
    /// - Parameters:
    ///   - value: The value to confirm.
    ///   - dialog: The question.
    /// - Returns: Whether it was confirmed.
    /// - Throws: ``InteractionError`` when the question cannot be asked.
    public func requestConfirmation<Wrapped: IntentValueConvertible>(
        for value: Wrapped, dialog: IntentDialog? = nil
    ) async throws -> Bool where Value == Wrapped? {
        try await confirm(value.intentValue, dialog: dialog)
    }

    private func confirm(_ value: IntentValue, dialog: IntentDialog?) async throws -> Bool {
        let execution = IntentExecution.current
        let question = dialog.map { $0.full.resolved(in: execution.localization) } ?? "Use \(value.displayText)?"
        return try await execution.interaction.requestConfirmation(ConfirmationRequest(name: parameterName, question: question))
    }
}

extension AppIntent {
    /// Asks to confirm before going on, showing the result the intent is about to produce.
    ///
    /// ```swift
    /// try await requestConfirmation(output: .result(value: order, dialog: "Are you ready to order?") {
    ///     OrderPreview(order: order)
    /// })
    /// ```
    /// - Parameter output: The result to preview; its dialog is the question.
    /// - Throws: ``InteractionError/declined(question:)`` when not confirmed.
    public func requestConfirmation<Output: IntentResult>(output: Output) async throws {
        let execution = IntentExecution.current
        let parts = output.resultParts
        let question =
            parts.dialog.map { $0.full.resolved(in: execution.localization) }
            ?? "Run \(Self.title.resolved(in: execution.localization))?"
        let preview = parts.snippet.map { SnippetRenderer.render($0) }
        let request = ConfirmationRequest(name: "confirm", question: question, preview: preview)
        guard try await execution.interaction.requestConfirmation(request) else {
            throw InteractionError.declined(question: question)
        }
    }

    /// Asks to confirm before going on.
    ///
    /// - Parameter dialog: The question.
    /// - Throws: ``InteractionError/declined(question:)`` when not confirmed.
    public func requestConfirmation(dialog: IntentDialog) async throws {
        let execution = IntentExecution.current
        let question = dialog.full.resolved(in: execution.localization)
        guard try await execution.interaction.requestConfirmation(ConfirmationRequest(name: "confirm", question: question)) else {
            throw InteractionError.declined(question: question)
        }
    }
}

/// The default questions, made from a parameter's title.
enum QuestionText {
    static func valueQuestion(dialog: IntentDialog?, title: LocalizedStringResource, type: IntentValueType) -> String {
        let localization = IntentExecution.current.localization
        if let dialog { return dialog.full.resolved(in: localization) }
        let question: LocalizedStringResource =
            switch type.nonOptional {
            case .enumeration, .entity, .list: "Which \(title)?"
            default: "What is the \(title)?"
            }
        return question.resolved(in: localization)
    }
}
