import IntentKit

/// The tools the in-process MCP server serves in these tests: harmless, quick, and one that
/// asks a question when its text is not given.
enum EchoApp {
    static let app = IntentApp(name: "Echo", intents: [Say.self, Add.self])

    /// Returns its text.
    struct Say: AppIntent {
        static let title: LocalizedStringResource = "Say"

        @Parameter(title: "Text", requestValueDialog: "What should I say?")
        var text: String

        func perform() async throws -> some IntentResult & ReturnsValue<String> {
            .result(value: text)
        }
    }

    /// Returns the sum of two numbers.
    struct Add: AppIntent {
        static let title: LocalizedStringResource = "Add"

        @Parameter(title: "First") var first: Int
        @Parameter(title: "Second", default: 0) var second: Int

        func perform() async throws -> some IntentResult & ReturnsValue<Int> {
            .result(value: first &+ second)
        }
    }
}
