import Foundation

extension LocalHTTPServer {
    /// A request the server received.
    ///
    /// ```swift
    /// let server = try LocalHTTPServer { request in
    ///     request.method == "POST" ? .text(request.text) : .status(405)
    /// }
    /// ```
    public struct Request: Sendable {
        /// The method, as sent (`GET`, `POST`).
        public var method: String
        /// The path, without the query (`/search`).
        public var path: String
        /// The query after `?`, or `nil` when there is none (`q=swift`).
        public var query: String?
        /// The headers, by lowercased name.
        public var headers: [String: String]
        /// The body's bytes.
        public var body: Data

        /// Creates a request.
        public init(method: String, path: String, query: String? = nil, headers: [String: String] = [:], body: Data = Data()) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.body = body
        }

        /// The body as UTF-8 text (invalid bytes replaced).
        public var text: String { String(decoding: body, as: UTF8.self) }
    }
}
