#if PostgreSQL
    import CLibpq
    import Foundation
    import StateStorage

    /// Shared SQL made ready for PostgreSQL: each `?` outside quoted text, quoted names, comments
    /// and dollar-quoted bodies becomes `$1`, `$2`, … bound to its value (`bigint`, `double
    /// precision` or `text`), or the literal `NULL` for a null value, which the server types from
    /// where it stands (so `? IS NULL` works as in SQLite).
    ///
    /// ```swift
    /// let query = try PostgresStatement.query("SELECT id FROM note WHERE text = ? AND note <> '?'", ["hi"])
    /// // query.sql == "SELECT id FROM note WHERE text = $1 AND note <> '?'"
    /// ```
    enum PostgresStatement {
        /// A value bound to a `$n` parameter: its text and its type.
        struct Value: Equatable {
            var text: String
            /// The type's object identifier: `bigint` (20), `double precision` (701) or `text` (25).
            var type: Oid
        }

        /// The statement with numbered parameters and its bound values.
        ///
        /// - Throws: ``Mismatch`` when the number of values differs from the number of `?`.
        static func query(_ sql: String, _ values: [SQLValue]) throws(Mismatch) -> (sql: String, values: [Value]) {
            let bytes = Array(sql.utf8)
            let placeholders = scan(bytes).placeholders
            guard placeholders.count == values.count else {
                throw Mismatch(placeholders: placeholders.count, values: values.count)
            }
            guard !values.isEmpty else { return (sql, []) }
            var text: [UInt8] = []
            text.reserveCapacity(bytes.count + values.count * 3)
            var bound: [Value] = []
            var start = 0
            for (offset, value) in zip(placeholders, values) {
                text.append(contentsOf: bytes[start..<offset])
                start = offset + 1
                switch value {
                case .null:
                    text.append(contentsOf: "NULL".utf8)
                    continue
                case .integer(let number): bound.append(Value(text: String(number), type: 20))
                case .real(let number): bound.append(Value(text: Self.text(of: number), type: 701))
                case .text(let string): bound.append(Value(text: string, type: 25))
                }
                text.append(contentsOf: "$\(bound.count)".utf8)
            }
            text.append(contentsOf: bytes[start...])
            return (String(decoding: text, as: UTF8.self), bound)
        }

        /// A real as `double precision` reads it, to the last bit.
        static func text(of number: Double) -> String {
            if number.isNaN { return "NaN" }
            if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
            return "\(number)"
        }

        /// The statements of a script, split at the semicolons outside quotes and comments,
        /// without the empty ones.
        static func statements(_ script: String) -> [String] {
            let bytes = Array(script.utf8)
            var statements: [String] = []
            var start = 0
            for end in scan(bytes).separators + [bytes.count] {
                let statement = String(decoding: bytes[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if !statement.isEmpty { statements.append(statement) }
                start = end + 1
            }
            return statements
        }

        /// The offsets of the `?` and the `;` that are SQL, not text.
        static func scan(_ bytes: [UInt8]) -> (placeholders: [Int], separators: [Int]) {
            var placeholders: [Int] = []
            var separators: [Int] = []
            var index = 0
            let count = bytes.count
            func isIdentifier(_ byte: UInt8) -> Bool {
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
                    || byte == 0x24 || byte >= 0x80
            }
            while index < count {
                let byte = bytes[index]
                let next: UInt8 = index + 1 < count ? bytes[index + 1] : 0
                switch byte {
                case UInt8(ascii: "?"):
                    placeholders.append(index)
                    index += 1
                case UInt8(ascii: ";"):
                    separators.append(index)
                    index += 1
                case UInt8(ascii: "'"):
                    let escapes =
                        index > 0 && (bytes[index - 1] == UInt8(ascii: "E") || bytes[index - 1] == UInt8(ascii: "e"))
                        && (index < 2 || !isIdentifier(bytes[index - 2]))
                    index = skipQuoted(bytes, from: index, quote: UInt8(ascii: "'"), backslashEscapes: escapes)
                case UInt8(ascii: "\""):
                    index = skipQuoted(bytes, from: index, quote: UInt8(ascii: "\""), backslashEscapes: false)
                case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
                    while index < count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                    var depth = 0
                    while index < count {
                        if bytes[index] == UInt8(ascii: "/") && index + 1 < count && bytes[index + 1] == UInt8(ascii: "*") {
                            depth += 1
                            index += 2
                        } else if bytes[index] == UInt8(ascii: "*") && index + 1 < count && bytes[index + 1] == UInt8(ascii: "/") {
                            depth -= 1
                            index += 2
                            if depth == 0 { break }
                        } else {
                            index += 1
                        }
                    }
                case UInt8(ascii: "$") where index == 0 || !isIdentifier(bytes[index - 1]):
                    index = skipDollarQuoted(bytes, from: index) ?? index + 1
                default:
                    index += 1
                }
            }
            return (placeholders, separators)
        }

        /// The offset after a quoted text or name that starts at `start`.
        private static func skipQuoted(_ bytes: [UInt8], from start: Int, quote: UInt8, backslashEscapes: Bool) -> Int {
            var index = start + 1
            while index < bytes.count {
                let byte = bytes[index]
                if backslashEscapes && byte == UInt8(ascii: "\\") {
                    index += 2
                } else if byte == quote {
                    if index + 1 < bytes.count && bytes[index + 1] == quote {
                        index += 2
                    } else {
                        return index + 1
                    }
                } else {
                    index += 1
                }
            }
            return bytes.count
        }

        /// The offset after a `$tag$ … $tag$` body that starts at `start`, or `nil` when the `$`
        /// does not open one (a parameter such as `$1`).
        private static func skipDollarQuoted(_ bytes: [UInt8], from start: Int) -> Int? {
            var end = start + 1
            while end < bytes.count && bytes[end] != UInt8(ascii: "$") {
                let byte = bytes[end]
                let letter = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte >= 0x80
                let digit = byte >= 0x30 && byte <= 0x39
                guard letter || (digit && end > start + 1) else { return nil }
                end += 1
            }
            guard end < bytes.count else { return nil }
            let tag = bytes[start...end]
            var index = end + 1
            while index + tag.count <= bytes.count {
                if bytes[index] == UInt8(ascii: "$") && bytes[index..<(index + tag.count)].elementsEqual(tag) {
                    return index + tag.count
                }
                index += 1
            }
            return bytes.count
        }

        /// A statement's `?` and its values do not match in number.
        struct Mismatch: Error, CustomStringConvertible {
            var placeholders: Int
            var values: Int
            var description: String {
                "the statement has \(placeholders) placeholder(s) '?' but \(values) value(s) were given: pass one value per '?' (a '?' inside quotes is text, not a placeholder)"
            }
        }
    }
#endif
