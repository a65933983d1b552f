import Foundation
import IntentKit

/// CSV text (RFC 4180) to rows and back: fields in double quotes may hold the delimiter, line
/// breaks and quotes written twice (`""`); records end with `\n` or `\r\n`.
///
/// ```swift
/// try CSVFunctions.parse("title,year\nEmma,1815\n")
/// // [{title: Emma, year: 1815}]
/// try CSVFunctions.parse("a,b\n\"x,1\n")
/// // throws: invalid CSV at line 2: the quoted field that starts here is not closed with '"'
/// try CSVFunctions.encode([.dictionary(["title": "Emma", "note": "a, b"])], columns: ["title", "note"])
/// // "title,note\nEmma,\"a, b\"\n"
/// ```
public enum CSVFunctions {
    /// One record and the line (from 1) it starts on.
    public struct Record: Sendable, Equatable {
        /// The fields.
        public var fields: [String]
        /// The line the record starts on.
        public var line: Int
    }

    /// Reads the records of CSV text; a blank line is no record.
    ///
    /// - Parameters:
    ///   - text: The CSV text.
    ///   - delimiter: The character between fields (`,` by default; `;` and tab are common).
    /// - Throws: ``ValueFunctionError/invalidCSV(line:reason:)`` for a quote that is not closed,
    ///   text after a closing quote, or a quote inside an unquoted field.
    public static func records(_ text: String, delimiter: Character = ",") throws -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var line = 1
        var recordLine = 1
        var characters = text[...]
        var fieldStarted = false
        var fieldQuoted = false

        func endRecord() {
            fields.append(field)
            if !(fields.count == 1 && fields[0].isEmpty && !fieldStarted) { records.append(Record(fields: fields, line: recordLine)) }
            fields = []
            field = ""
            fieldStarted = false
            fieldQuoted = false
        }

        while let character = characters.popFirst() {
            switch character {
            case "\"" where field.isEmpty && !fieldQuoted:
                fieldStarted = true
                fieldQuoted = true
                let openedOn = line
                var closed = false
                while let inner = characters.popFirst() {
                    if inner == "\"" {
                        if characters.first == "\"" {
                            characters.removeFirst()
                            field.append("\"")
                        } else {
                            closed = true
                            break
                        }
                    } else {
                        if inner == "\n" || inner == "\r\n" { line += 1 }
                        field.append(inner)
                    }
                }
                guard closed else {
                    throw ValueFunctionError.invalidCSV(line: openedOn, reason: "the quoted field that starts here is not closed with '\"'")
                }
                if let next = characters.first, next != delimiter, next != "\n", next != "\r\n", next != "\r" {
                    throw ValueFunctionError.invalidCSV(
                        line: line, reason: "'\(next)' after the closing quote of a field; a field in quotes must end at its closing quote")
                }
            case "\"":
                throw ValueFunctionError.invalidCSV(
                    line: line,
                    reason: "a quote inside a field that does not start with one; put the field in quotes and write the quote twice (\"\")")
            case delimiter:
                fields.append(field)
                field = ""
                fieldStarted = true
                fieldQuoted = false
            case "\n", "\r\n", "\r":
                endRecord()
                line += 1
                recordLine = line
            default:
                field.append(character)
            }
        }
        if !field.isEmpty || !fields.isEmpty || fieldStarted { endRecord() }
        return records
    }

    /// Reads CSV text whose first record names the columns: one dictionary per further record,
    /// with text values by column name.
    ///
    /// - Throws: ``ValueFunctionError/invalidCSV(line:reason:)`` as ``records(_:delimiter:)``
    ///   does, and for a record with more or fewer fields than the header, or two columns of one name.
    public static func parse(_ text: String, delimiter: Character = ",") throws -> [IntentValue] {
        let records = try records(text, delimiter: delimiter)
        guard let header = records.first else { return [] }
        var seen: Set<String> = []
        for name in header.fields where !seen.insert(name).inserted {
            throw ValueFunctionError.invalidCSV(line: header.line, reason: "the header names the column '\(name)' twice")
        }
        return try records.dropFirst().map { record in
            guard record.fields.count == header.fields.count else {
                throw ValueFunctionError.invalidCSV(
                    line: record.line,
                    reason: "\(record.fields.count) field(s), but the header on line \(header.line) has \(header.fields.count) column(s)")
            }
            var row: [String: IntentValue] = [:]
            for (name, value) in zip(header.fields, record.fields) { row[name] = .string(value) }
            return .dictionary(row)
        }
    }

    /// Writes rows as CSV with a header row; each record ends with `\n`.
    ///
    /// - Parameters:
    ///   - rows: Dictionaries (or entities) written under their keys, or lists written as they are.
    ///   - columns: The columns in order; by default every key of the rows, sorted.
    ///   - delimiter: The character between fields.
    /// - Throws: ``ValueFunctionError/invalidArgument(argument:reason:)`` when a row is neither
    ///   a dictionary, an entity nor a list.
    public static func encode(_ rows: [IntentValue], columns: [String]? = nil, delimiter: Character = ",") throws -> String {
        var lines: [[String]] = []
        let dictionaries = try rows.enumerated().map { index, row -> [String: IntentValue]? in
            switch row {
            case .dictionary(let entries): return entries
            case .entity(let entity):
                return entity.properties.merging(["id": .string(entity.identifier), "title": .string(entity.title)]) { own, _ in own }
            case .list: return nil
            default:
                throw ValueFunctionError.invalidArgument(
                    argument: "rows", reason: "row \(index) is \(row.kindName) '\(row.displayText)'; a row is a dictionary or a list")
            }
        }
        let names = columns ?? Array(Set(dictionaries.compactMap { $0 }.flatMap(\.keys))).sorted()
        if !names.isEmpty { lines.append(names) }
        for (row, entries) in zip(rows, dictionaries) {
            if let entries {
                lines.append(names.map { entries[$0].map(cell) ?? "" })
            } else {
                lines.append(row.elements.map(cell))
            }
        }
        return lines.map { $0.map { quote($0, delimiter: delimiter) }.joined(separator: String(delimiter)) + "\n" }.joined()
    }

    private static func cell(_ value: IntentValue) -> String {
        switch value {
        case .list, .dictionary: JSONFunctions.encode(value, pretty: false)
        default: value.displayText
        }
    }

    private static func quote(_ field: String, delimiter: Character) -> String {
        let needsQuotes = field.contains { $0 == delimiter || $0 == "\"" || $0.isNewline } || field.first == " " || field.last == " "
        return needsQuotes ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }
}
