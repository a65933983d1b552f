import Foundation

extension LocalHTTPServer {
    /// What the server answers: a status, headers and a body, sent at once, after a delay, or
    /// never.
    ///
    /// ```swift
    /// Response.json(#"{"ok": true}"#)
    /// Response.text("Hello")
    /// Response.bytes(Data([0xFF, 0xFE]), contentType: "image/png")
    /// Response.status(500, "database is down")
    /// Response.text("late").delayed(by: .milliseconds(300))
    /// Response.never
    /// ```
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// The headers to send besides `Content-Length`.
        public var headers: [String: String]
        /// The body's bytes.
        public var body: Data
        /// How long to wait before answering.
        public var delay: Duration = .zero
        /// Whether the server holds the request open without answering until it stops.
        public var neverAnswers = false
        /// Whether `Content-Length` is sent; without it the body ends when the connection closes.
        public var sendsContentLength = true

        /// Creates a response.
        ///
        /// - Parameters:
        ///   - status: The status code.
        ///   - headers: The headers to send besides `Content-Length`.
        ///   - body: The body's bytes.
        public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// UTF-8 text, as `text/plain; charset=utf-8` unless another type is given.
        public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> Response {
            Response(status: status, headers: ["Content-Type": contentType], body: Data(text.utf8))
        }

        /// JSON text, as `application/json` unless another type is given.
        public static func json(_ text: String, status: Int = 200, contentType: String = "application/json") -> Response {
            Response(status: status, headers: ["Content-Type": contentType], body: Data(text.utf8))
        }

        /// Bytes of a type, or with no `Content-Type` at all when the type is `nil`.
        public static func bytes(_ data: Data, contentType: String? = "application/octet-stream", status: Int = 200) -> Response {
            Response(status: status, headers: contentType.map { ["Content-Type": $0] } ?? [:], body: data)
        }

        /// A status code with a short text body.
        public static func status(_ code: Int, _ text: String = "") -> Response {
            .text(text, status: code)
        }

        /// A response that never comes: the request stays open until the server stops.
        public static var never: Response {
            var response = Response()
            response.neverAnswers = true
            return response
        }

        /// The request read back as JSON: `method`, `path`, `query`, `headers` (lowercased
        /// names) and `body` (as text).
        ///
        /// ```swift
        /// let server = try LocalHTTPServer(routes: ["/echo": { .echo($0) }])
        /// ```
        public static func echo(_ request: Request) -> Response {
            let object: [String: Any] = [
                "method": request.method, "path": request.path, "query": request.query ?? "", "headers": request.headers, "body": request.text
            ]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
            return Response(status: 200, headers: ["Content-Type": "application/json"], body: data)
        }

        /// This response, sent after a delay (cut short when the server stops).
        public func delayed(by delay: Duration) -> Response {
            var response = self
            response.delay = delay
            return response
        }

        /// This response without `Content-Length`: the body ends when the server closes the
        /// connection, so a client cannot know its size in advance.
        public func withoutContentLength() -> Response {
            var response = self
            response.sendsContentLength = false
            return response
        }
    }
}
