import Foundation

/// Finds where JSON text went wrong from the parser's error, as a line and a column.
///
/// Foundation's parser names the offset of the bad character ("around character 16") or says
/// the text ended too early; both become a 1-based line and column.
///
/// ```swift
/// JSONErrorLocation.problem(for: error, in: "{\"a\": 1,\n  \"b\": x}")
/// // .invalidJSON(line: 2, column: 8, reason: "unexpected character 'x'")
/// ```
enum JSONErrorLocation {
    /// The located problem of a parse error.
    static func problem(for error: any Error, in text: String) -> ResponseBody.Problem {
        let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? String(describing: error)
        let bytes = Array(text.utf8)
        if let offset = characterOffset(in: detail), offset < bytes.count {
            let (line, column) = lineAndColumn(ofByte: offset, in: bytes)
            let found = String(decoding: bytes[offset...].prefix(4), as: UTF8.self).first.map(String.init) ?? ""
            return .invalidJSON(line: line, column: column, reason: "unexpected \(describe(found))")
        }
        let (line, column) = lineAndColumn(ofByte: bytes.count, in: bytes)
        if detail.lowercased().contains("end of file") {
            return .invalidJSON(line: line, column: column, reason: "the text ends before the JSON value does")
        }
        return .invalidJSON(line: line, column: column, reason: detail)
    }

    /// The number in "around character N" or "at offset N".
    private static func characterOffset(in detail: String) -> Int? {
        for marker in ["around character ", "offset "] {
            if let range = detail.range(of: marker) {
                let digits = detail[range.upperBound...].prefix(while: \.isNumber)
                if let offset = Int(digits) { return offset }
            }
        }
        return nil
    }

    /// The 1-based line and column (in characters) of a byte offset.
    private static func lineAndColumn(ofByte offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let before = bytes[..<offset]
        let line = before.count(where: { $0 == 10 }) + 1
        let lineStart = before.lastIndex(of: 10).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return (line, column)
    }

    private static func describe(_ found: String) -> String {
        switch found {
        case "": "end of text"
        case "\n": "end of line"
        default: "character '\(found)'"
        }
    }
}
