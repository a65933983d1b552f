import IntentKit

extension WebApp {
    /// What `Web.GetContentsOfURL` returns: the body alone, or the status, headers and body.
    ///
    /// ```yaml
    /// with: { url: "https://example.com/", response: full, failOnError: false }
    /// ```
    public enum ResponseKind: String, AppEnum {
        /// The body: dictionaries and lists for JSON, text otherwise, a file when saved.
        case body
        /// A dictionary `{status, headers, body}`.
        case full

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Response"
        public static let caseDisplayRepresentations: [ResponseKind: DisplayRepresentation] = [
            .body: "Body", .full: "Status, Headers and Body"
        ]
    }
}
