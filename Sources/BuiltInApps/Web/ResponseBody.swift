import Foundation
import IntentKit

/// Turns a response body into a value: JSON into dictionaries and lists, text into text.
///
/// - A body whose `Content-Type` is JSON (`application/json`, `text/json`, or any `…+json`
///   such as `application/problem+json`) is parsed, and a body that is not valid JSON is an
///   error with its line and column.
/// - A body with no `Content-Type` is parsed when it starts with `{` or `[` and is valid JSON;
///   otherwise it is text.
/// - Any other body is text: UTF-8 unless the type names another charset (ISO-8859-1, US-ASCII,
///   Windows-1252 and UTF-16 are read). Bytes that are not text in that charset are an error
///   that suggests `saveTo`.
///
/// ```swift
/// try ResponseBody.value(of: Data(#"{"a": [1, 2]}"#.utf8), contentType: "application/json")
/// // .dictionary(["a": .list([.int(1), .int(2)])])
/// ```
enum ResponseBody {
    /// Why a body is not a value.
    enum Problem: Error, Equatable {
        /// The bytes are not text in the charset.
        case notText(charset: String)
        /// The charset is not one that is read.
        case unknownCharset(String)
        /// The body says it is JSON and is not.
        case invalidJSON(line: Int, column: Int, reason: String)
    }

    /// The body as a value.
    ///
    /// - Parameters:
    ///   - data: The body's bytes.
    ///   - contentType: The `Content-Type` header, if any.
    /// - Returns: A dictionary, list or scalar for JSON; text otherwise.
    /// - Throws: ``Problem``.
    static func value(of data: Data, contentType: String?) throws(Problem) -> IntentValue {
        let mediaType = MediaType(contentType)
        let text = try decode(data, charset: mediaType?.charset)
        if let mediaType, mediaType.isJSON {
            guard !text.allSatisfy(\.isWhitespace) else { return .string("") }
            do {
                return try IntentValue.fromJSON(text)
            } catch {
                throw JSONErrorLocation.problem(for: error, in: text)
            }
        }
        if mediaType == nil, let first = text.first(where: { !$0.isWhitespace }), first == "{" || first == "[",
            let parsed = try? IntentValue.fromJSON(text)
        {
            return parsed
        }
        return .string(text)
    }

    /// Decodes bytes in a charset (UTF-8 when none is named), without a byte order mark.
    static func decode(_ data: Data, charset: String?) throws(Problem) -> String {
        let name = charset?.lowercased() ?? "utf-8"
        let text: String?
        switch name {
        case "utf-8", "utf8":
            let byteOrderMark = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            text = data.withUnsafeBytes { String(validating: $0.dropFirst(byteOrderMark), as: UTF8.self) }
        case "iso-8859-1", "latin1", "iso_8859-1", "us-ascii", "ascii":
            text = String(data: data, encoding: .isoLatin1)
        case "windows-1252", "cp1252":
            text = String(data: data, encoding: .windowsCP1252)
        case "utf-16", "utf-16le", "utf-16be":
            text = String(data: data, encoding: name == "utf-16le" ? .utf16LittleEndian : name == "utf-16be" ? .utf16BigEndian : .utf16)
        default:
            throw .unknownCharset(charset ?? name)
        }
        guard let text else { throw .notText(charset: name.uppercased()) }
        return text
    }

    /// A `Content-Type`'s type and charset.
    struct MediaType {
        /// The type, lowercased, without parameters (`application/json`).
        var type: String
        /// The `charset` parameter, if any.
        var charset: String?

        init?(_ header: String?) {
            guard let header else { return nil }
            let parts = header.split(separator: ";")
            guard let first = parts.first.map(Self.trimmed), !first.isEmpty else { return nil }
            type = first.lowercased()
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, Self.trimmed(pair[0]).lowercased() == "charset" {
                    charset = String(Self.trimmed(pair[1]).filter { $0 != "\"" })
                }
            }
        }

        private static func trimmed(_ text: Substring) -> Substring {
            let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
            let end = text.lastIndex { $0 != " " && $0 != "\t" }.map(text.index(after:)) ?? start
            return text[start..<max(start, end)]
        }

        /// Whether the type is JSON.
        var isJSON: Bool {
            type == "application/json" || type == "text/json" || type.hasSuffix("+json")
        }
    }
}
