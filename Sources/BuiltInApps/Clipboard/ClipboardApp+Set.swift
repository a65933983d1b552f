import IntentKit

extension ClipboardApp {
    /// Puts text on the clipboard.
    ///
    /// ```yaml
    /// - perform: Clipboard.Set
    ///   with: { text: "${summary}" }
    /// ```
    public struct Set: AppIntent {
        public static let title: LocalizedStringResource = "Set Clipboard"
        public static let description = IntentDescription("Puts text on the clipboard, through wl-copy on Wayland or xclip on X11.")

        @Parameter(title: "Text")
        public var text: String

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Copy \(\.$text) to the clipboard")
        }

        public func perform() async throws -> some IntentResult {
            try ClipboardTool.find().write(text)
            return .result()
        }
    }
}
