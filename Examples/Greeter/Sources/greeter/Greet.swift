import IntentKit

/// How warmly to greet.
enum Tone: String, AppEnum {
    case friendly
    case formal

    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Tone"
    static let caseDisplayRepresentations: [Tone: DisplayRepresentation] = [
        .friendly: "Friendly",
        .formal: "Formal"
    ]
}

/// Greets someone.
struct Greet: AppIntent {
    static let title: LocalizedStringResource = "Greet"

    @Parameter(title: "Name", requestValueDialog: "Whom should I greet?")
    var name: String

    @Parameter(title: "Tone", default: .friendly)
    var tone: Tone

    static var parameterSummary: some ParameterSummary {
        Summary("Greet \(\.$name)") { \.$tone }
    }

    func perform() async throws -> some IntentResult & ReturnsValue<String> & ProvidesDialog {
        let greeting = tone == .friendly ? "Hi \(name)!" : "Good day, \(name)."
        return .result(value: greeting, dialog: "\(greeting)")
    }
}
