import Clockwork
import Foundation
import IntentKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension WebApp {
    /// Fetches a URL over HTTP or HTTPS and returns its body: dictionaries and lists when it is
    /// JSON, text otherwise, or a file when `saveTo` is given.
    ///
    /// ```yaml
    /// - id: created
    ///   perform: Web.GetContentsOfURL
    ///   with:
    ///     url: "https://api.example.com/items"
    ///     method: POST
    ///     headers: { Authorization: "Bearer ${secrets.API_TOKEN}" }
    ///     body: { name: Tea, count: 2 }
    /// ```
    ///
    /// A status of 400 or more fails the step unless `failOnError` is false; a body kept in
    /// memory is limited to ``maximumBodySize`` (64 MiB), and a body saved with `saveTo` has no
    /// limit. See the Web article for the rules that decide between JSON and text.
    public struct GetContentsOfURL: AppIntent {
        public static let title: LocalizedStringResource = "Get Contents of URL"
        public static let description = IntentDescription(
            "Fetches a URL and returns its body: dictionaries and lists for JSON, text otherwise, or a file when saved.")

        /// The largest body kept in memory: 64 MiB. Larger bodies are saved with `saveTo`.
        public static let maximumBodySize = 64 << 20

        @Parameter(title: "URL", requestValueDialog: "Which URL do you want to fetch?")
        public var url: URL

        @Parameter(title: "Method", default: .get)
        public var method: HTTPMethod

        @Parameter(title: "Headers")
        public var headers: [String: String]?

        @Parameter(title: "Body", description: "Text as it is, a file's bytes, or anything else as JSON.")
        public var body: IntentValue?

        @Parameter(title: "Form", description: "Fields sent as application/x-www-form-urlencoded.")
        public var form: [String: String]?

        @Parameter(title: "Timeout", description: "Seconds the whole request may take.", default: 60)
        public var timeout: Double

        @Parameter(title: "Fail on Error", description: "Whether a status of 400 or more fails the step.", default: true)
        public var failOnError: Bool

        @Parameter(title: "Save To", description: "A file path to save the body to, instead of returning it.")
        public var saveTo: String?

        @Parameter(title: "Response", default: .body)
        public var response: ResponseKind

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            When(\.$saveTo, .hasAnyValue) {
                Summary("Download \(\.$url) to \(\.$saveTo)") {
                    \.$method
                    \.$headers
                    \.$body
                    \.$form
                    \.$timeout
                    \.$failOnError
                    \.$response
                }
            } otherwise: {
                Summary("Get contents of \(\.$url)") {
                    \.$method
                    \.$headers
                    \.$body
                    \.$form
                    \.$timeout
                    \.$failOnError
                    \.$response
                }
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<IntentValue> {
            let request = try makeRequest()
            let deadline = Duration.milliseconds(Int64((max(timeout, 0.001) * 1000).rounded(.up)))
            let download = try saveTo.map { try Download(path: $0) }
            let outcome: HTTPTransfer.Outcome
            do {
                let destination = download.map { HTTPTransfer.Destination.file($0.handle, path: $0.path) } ?? .memory(limit: Self.maximumBodySize)
                outcome = try await HTTPTransfer.shared.fetch(request, into: destination, deadline: deadline, clock: TaskClock.current)
            } catch let failure as HTTPTransfer.Failure {
                download?.discard()
                throw Error.from(failure, url: url, timeout: timeout)
            } catch {
                download?.discard()
                throw error
            }
            let status = outcome.response.statusCode
            if failOnError && status >= 400 {
                let excerpt = Self.excerpt(of: download.map { $0.firstBytes() } ?? outcome.body)
                download?.discard()
                throw Error.status(
                    method: method.rawValue, url: url.absoluteString, code: status,
                    reason: HTTPURLResponse.localizedString(forStatusCode: status).capitalized, excerpt: excerpt)
            }
            let bodyValue: IntentValue
            if let download {
                bodyValue = .file(try download.finish())
            } else {
                bodyValue = try decode(outcome.body, contentType: outcome.response.value(forHTTPHeaderField: "Content-Type"))
            }
            switch response {
            case .body:
                return .result(value: bodyValue)
            case .full:
                var headers: [String: IntentValue] = [:]
                for case (let name as String, let value as String) in outcome.response.allHeaderFields {
                    headers[name.lowercased()] = .string(value)
                }
                return .result(value: .dictionary(["status": .int(status), "headers": .dictionary(headers), "body": bodyValue]))
            }
        }

        /// How much later than the step's deadline the session's idle timer is set: a minute.
        static let idleTimerMargin: TimeInterval = 60

        private func makeRequest() throws -> URLRequest {
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
                throw Error.unsupportedScheme(url: url.absoluteString)
            }
            var request = URLRequest(url: url)
            request.httpMethod = method.rawValue
            // The step's deadline is kept by the clock (HTTPTransfer); the session's own idle
            // timer, which runs by real time, is set past it so that it never decides first.
            request.timeoutInterval = max(timeout, 0.001) + Self.idleTimerMargin
            var payload: RequestBody?
            switch (body, form) {
            case (let body?, nil) where !body.isNull:
                do {
                    payload = try RequestBody(body: body)
                } catch {
                    if case .file(let file) = body { throw Error.cannotReadBody(path: file.fileURL.path, reason: HTTPTransfer.reason(error)) }
                    throw error
                }
            case (nil, let form?), (.null?, let form?):
                payload = RequestBody(form: form)
            case (_?, _?):
                throw Error.bodyAndForm(url: url.absoluteString)
            default:
                payload = nil
            }
            for (name, value) in headers ?? [:] { request.setValue(value, forHTTPHeaderField: name) }
            if let payload {
                request.httpBody = payload.data
                if request.value(forHTTPHeaderField: "Content-Type") == nil {
                    request.setValue(payload.contentType, forHTTPHeaderField: "Content-Type")
                }
            }
            return request
        }

        private func decode(_ data: Data, contentType: String?) throws -> IntentValue {
            do {
                return try ResponseBody.value(of: data, contentType: contentType)
            } catch {
                let text = url.absoluteString
                switch error {
                case .notText(let charset):
                    throw Error.notText(url: text, contentType: contentType ?? "no Content-Type", charset: charset)
                case .unknownCharset(let charset):
                    throw Error.unknownCharset(url: text, charset: charset)
                case .invalidJSON(let line, let column, let reason):
                    throw Error.invalidJSON(url: text, line: line, column: column, reason: reason)
                }
            }
        }

        /// The start of an error body, on one line, for an error message.
        static func excerpt(of data: Data) -> String {
            let text = String(decoding: data.prefix(400), as: UTF8.self)
            let line = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return line.count > 200 ? String(line.prefix(200)) + "…" : line
        }
    }
}
