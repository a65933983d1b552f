import IntentKit

extension ClipboardApp {
    /// Returns the text on the clipboard (empty when there is none).
    ///
    /// ```yaml
    /// - id: copied
    ///   perform: Clipboard.Get
    /// ```
    public struct Get: AppIntent {
        public static let title: LocalizedStringResource = "Get Clipboard"
        public static let description = IntentDescription("Gets the text on the clipboard, through wl-paste on Wayland or xclip on X11.")

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Get the text on the clipboard")
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<String> {
            .result(value: try ClipboardTool.find().read())
        }
    }
}
