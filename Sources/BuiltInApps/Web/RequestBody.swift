import Foundation
import IntentKit

/// The bytes and content type a request sends, from `body` or `form`.
///
/// ```swift
/// RequestBody(body: .dictionary(["name": .string("Tea")]))   // {"name":"Tea"}, application/json
/// RequestBody(body: .string("hello"))                         // hello, text/plain; charset=utf-8
/// RequestBody(form: ["q": "swift & linux"])                   // q=swift%20%26%20linux, application/x-www-form-urlencoded
/// ```
struct RequestBody: Equatable {
    /// The bytes sent.
    var data: Data
    /// The `Content-Type` sent unless the request's headers name one.
    var contentType: String

    /// A body from a value: text as it is; a file's bytes; anything else (dictionaries, lists,
    /// numbers, booleans) as JSON.
    ///
    /// - Throws: The file system's error when a file cannot be read.
    init(body: IntentValue) throws {
        switch body {
        case .string(let text):
            data = Data(text.utf8)
            contentType = "text/plain; charset=utf-8"
        case .file(let file):
            data = try file.data
            contentType = "application/octet-stream"
        default:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(body)
            contentType = "application/json"
        }
    }

    /// A form, URL-encoded with its fields in name order.
    init(form: [String: String]) {
        let fields = form.sorted { $0.key < $1.key }.map { Self.formEncode($0.key) + "=" + Self.formEncode($0.value) }
        data = Data(fields.joined(separator: "&").utf8)
        contentType = "application/x-www-form-urlencoded"
    }

    /// Percent-encodes everything but letters, digits and `-._~`, as HTML forms do.
    private static func formEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
