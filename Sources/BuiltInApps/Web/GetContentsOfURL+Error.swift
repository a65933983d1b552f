import Foundation
import IntentKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension WebApp.GetContentsOfURL {
    /// Why a URL could not be fetched; each case names the URL and says the cause in words.
    public enum Error: Swift.Error, CustomLocalizedStringResourceConvertible, Equatable {
        /// The URL is not `http` or `https`.
        case unsupportedScheme(url: String)
        /// Both `body` and `form` were given.
        case bodyAndForm(url: String)
        /// The `body` file could not be read.
        case cannotReadBody(path: String, reason: String)
        /// Nothing accepted the connection.
        case cannotConnect(url: String, host: String, port: Int)
        /// The host name did not resolve.
        case hostNotFound(url: String, host: String)
        /// No complete answer came in time.
        case timedOut(url: String, seconds: Double)
        /// The TLS handshake or the certificate check failed.
        case secureConnectionFailed(url: String, reason: String)
        /// The server answered with a status of 400 or more.
        case status(method: String, url: String, code: Int, reason: String, excerpt: String)
        /// The body is over the limit for a body kept in memory.
        case tooLarge(url: String, limit: Int)
        /// The body is not text in its charset.
        case notText(url: String, contentType: String, charset: String)
        /// The body names a charset that is not read.
        case unknownCharset(url: String, charset: String)
        /// The body says it is JSON and is not.
        case invalidJSON(url: String, line: Int, column: Int, reason: String)
        /// The file given by `saveTo` could not be written.
        case cannotSave(path: String, reason: String)
        /// The connection failed in another way.
        case transferFailed(url: String, reason: String)

        public var localizedStringResource: LocalizedStringResource {
            switch self {
            case .unsupportedScheme(let url):
                "cannot fetch \(url): only http and https URLs are fetched"
            case .bodyAndForm(let url):
                "cannot fetch \(url) with both body and form: give one of them"
            case .cannotReadBody(let path, let reason):
                "cannot read the body file \(path): \(reason)"
            case .cannotConnect(let url, let host, let port):
                "cannot connect to \(url): nothing accepted the connection on \(host) port \(port) (is the server running?)"
            case .hostNotFound(let url, let host):
                "cannot fetch \(url): the host name \(host) was not found (check its spelling and the network's DNS)"
            case .timedOut(let url, let seconds):
                "no complete answer from \(url) within \(Self.secondsText(seconds)) (give a larger timeout to wait longer)"
            case .secureConnectionFailed(let url, let reason):
                "the secure connection to \(url) failed: \(reason)"
            case .status(let method, let url, let code, let reason, let excerpt):
                "\(method) \(url) answered \(code) \(reason)\(excerpt.isEmpty ? "" : ": " + excerpt) (give failOnError: false to handle the status in the workflow)"
            case .tooLarge(let url, let limit):
                "the body of \(url) is larger than \(Self.sizeText(limit)), the limit for a body kept in memory (give saveTo to save it to a file)"
            case .notText(let url, let contentType, let charset):
                "the body of \(url) (\(contentType)) is not \(charset) text (give saveTo to save its bytes to a file)"
            case .unknownCharset(let url, let charset):
                "the body of \(url) is in the charset \(charset), which is not read (give saveTo to save its bytes to a file)"
            case .invalidJSON(let url, let line, let column, let reason):
                "the body of \(url) says it is JSON but is not valid JSON: line \(line), column \(column): \(reason)"
            case .cannotSave(let path, let reason):
                "cannot save to \(path): \(reason)"
            case .transferFailed(let url, let reason):
                "cannot fetch \(url): \(reason)"
            }
        }

        static func secondsText(_ seconds: Double) -> String {
            let number = seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
            return seconds == 1 ? "1 second" : "\(number) seconds"
        }

        static func sizeText(_ bytes: Int) -> String {
            bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
        }

        /// The error a failed transfer of a URL means.
        static func from(_ failure: HTTPTransfer.Failure, url: URL, timeout: Double) -> Error {
            let text = url.absoluteString
            switch failure {
            case .tooLarge(let limit): return .tooLarge(url: text, limit: limit)
            case .timedOut: return .timedOut(url: text, seconds: timeout)
            case .cannotWrite(let path, let reason): return .cannotSave(path: path, reason: reason)
            case .cancelled: return .transferFailed(url: text, reason: "the request was cancelled")
            case .transport(let error): return from(error, url: url, timeout: timeout)
            }
        }

        private static func from(_ error: URLError, url: URL, timeout: Double) -> Error {
            let text = url.absoluteString
            let host = url.host ?? text
            switch error.code {
            case .cannotConnectToHost:
                return .cannotConnect(url: text, host: host, port: url.port ?? (url.scheme == "https" ? 443 : 80))
            case .cannotFindHost, .dnsLookupFailed:
                return .hostNotFound(url: text, host: host)
            case .timedOut:
                return .timedOut(url: text, seconds: timeout)
            case .secureConnectionFailed:
                return .secureConnectionFailed(url: text, reason: "the server did not complete a TLS handshake (does it speak https on this port?)")
            case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot:
                return .secureConnectionFailed(
                    url: text,
                    reason: "its certificate is not trusted by the system's certificate authorities (self-signed, or signed by an unknown authority)")
            case .serverCertificateHasBadDate, .serverCertificateNotYetValid:
                return .secureConnectionFailed(url: text, reason: "its certificate has expired or is not valid yet")
            case .clientCertificateRejected, .clientCertificateRequired:
                return .secureConnectionFailed(url: text, reason: "the server asks for a client certificate")
            case .networkConnectionLost:
                return .transferFailed(url: text, reason: "the connection closed before the response was complete")
            case .badServerResponse:
                return .transferFailed(url: text, reason: "the server's answer is not valid HTTP")
            case .notConnectedToInternet:
                return .transferFailed(url: text, reason: "there is no network connection")
            case .httpTooManyRedirects, .redirectToNonExistentLocation:
                return .transferFailed(url: text, reason: "it redirects too many times or to nowhere")
            case .unsupportedURL:
                return .unsupportedScheme(url: text)
            default:
                return fromLibcurlText(error.localizedDescription, url: text)
            }
        }

        /// libcurl's TLS failures come with no code of their own, only its text: "SSL certificate
        /// problem: self-signed certificate", "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong
        /// version number".
        private static func fromLibcurlText(_ detail: String, url: String) -> Error {
            if let range = detail.range(of: "SSL certificate problem: ") {
                let problem = detail[range.upperBound...]
                return .secureConnectionFailed(
                    url: url, reason: "its certificate is not trusted (\(problem)): no certificate authority of the system's store vouches for it")
            }
            if detail.contains("SSL") || detail.contains("TLS") {
                let problem = detail.components(separatedBy: "::").last ?? detail
                return .secureConnectionFailed(
                    url: url, reason: "the TLS handshake failed (\(problem)); does the server speak https on this port?")
            }
            return .transferFailed(url: url, reason: detail)
        }
    }
}
