import IntentKit

extension WebApp {
    /// The HTTP method of a request; text matches a case ignoring case, so `post` is `POST`.
    ///
    /// ```yaml
    /// with: { url: "https://api.example.com/items", method: POST, body: { name: Tea } }
    /// ```
    public enum HTTPMethod: String, AppEnum {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case patch = "PATCH"
        case delete = "DELETE"
        case head = "HEAD"
        case options = "OPTIONS"

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "HTTP Method"
        public static let caseDisplayRepresentations: [HTTPMethod: DisplayRepresentation] = [
            .get: "GET", .post: "POST", .put: "PUT", .patch: "PATCH", .delete: "DELETE", .head: "HEAD", .options: "OPTIONS"
        ]
    }
}
