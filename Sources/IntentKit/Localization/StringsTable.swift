import Foundation

/// The strings tables of an app: for each locale, its `.strings` tables by name.
///
/// Load them from a folder laid out as on Apple platforms:
///
/// ```swift
/// // Resources/en.lproj/Localizable.strings, Resources/ja.lproj/Localizable.strings, ...
/// let strings = try StringsCatalog(directory: resourcesURL)
/// strings.lookUp("Add Book", table: nil, locale: "ja")   // "本を追加"
/// ```
public struct StringsCatalog: Sendable {
    /// Tables by locale identifier (`ja`, `en`, `pt-BR`) and then by table name.
    public private(set) var tables: [String: [String: [String: String]]]

    /// An empty catalog: every key shows as itself.
    public init() {
        tables = [:]
    }

    /// Loads every `<locale>.lproj/<Table>.strings` below a folder.
    ///
    /// - Parameter directory: The folder holding the `.lproj` folders.
    /// - Throws: ``StringsFileError`` with the file, line and column of a malformed entry.
    public init(directory: URL) throws {
        tables = [:]
        let manager = FileManager.default
        let folders = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        for folder in folders.sorted() where folder.hasSuffix(".lproj") {
            let locale = String(folder.dropLast(".lproj".count))
            let folderURL = directory.appendingPathComponent(folder)
            for file in ((try? manager.contentsOfDirectory(atPath: folderURL.path)) ?? []).sorted()
            where file.hasSuffix(".strings") {
                let fileURL = folderURL.appendingPathComponent(file)
                let text = try String(contentsOf: fileURL, encoding: .utf8)
                let entries = try StringsFileParser.parse(text, fileName: fileURL.path)
                add(entries, table: String(file.dropLast(".strings".count)), locale: locale)
            }
        }
    }

    /// Reads `<locale>.lproj/<Table>.strings` files given as text by their relative paths, such
    /// as files compiled into the binary; other paths are ignored.
    ///
    /// ```swift
    /// let strings = try StringsCatalog(files: ["ja.lproj/Localizable.strings": #""Add Book" = "本を追加";"#])
    /// ```
    ///
    /// - Parameter files: The files' text by path.
    /// - Throws: ``StringsFileError`` with the file, line and column of a malformed entry.
    public init(files: [String: String]) throws {
        tables = [:]
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            let parts = path.split(separator: "/")
            guard parts.count == 2, parts[0].hasSuffix(".lproj"), parts[1].hasSuffix(".strings") else { continue }
            let entries = try StringsFileParser.parse(text, fileName: path)
            add(entries, table: String(parts[1].dropLast(".strings".count)), locale: String(parts[0].dropLast(".lproj".count)))
        }
    }

    /// Adds (or replaces) the entries of one table.
    ///
    /// - Parameters:
    ///   - entries: Keys and their translations.
    ///   - table: The table's name.
    ///   - locale: The locale identifier, such as `ja`.
    public mutating func add(_ entries: [String: String], table: String, locale: String) {
        tables[Self.normalized(locale), default: [:]][table, default: [:]].merge(entries) { $1 }
    }

    /// The locales that have at least one table.
    public var locales: [String] { tables.keys.sorted() }

    /// Looks a key up for a locale, trying the full identifier and then its language.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - table: A table name, or `nil` for every table of the locale.
    ///   - locale: A locale identifier such as `ja`, `ja-JP` or `ja_JP`.
    /// - Returns: The translation, or `nil`.
    public func lookUp(_ key: String, table: String?, locale: String) -> String? {
        for candidate in Self.candidates(for: locale) {
            guard let localeTables = tables[candidate] else { continue }
            if let table {
                if let value = localeTables[table]?[key] { return value }
            } else {
                for name in localeTables.keys.sorted() {
                    if let value = localeTables[name]?[key] { return value }
                }
            }
        }
        return nil
    }

    static func normalized(_ locale: String) -> String {
        locale.contains("_") ? locale.replacingOccurrences(of: "_", with: "-") : locale
    }

    static func candidates(for locale: String) -> [String] {
        let normalized = normalized(locale)
        var candidates = [normalized]
        if let language = normalized.split(separator: "-").first, language.count < normalized.count {
            candidates.append(String(language))
        }
        return candidates
    }
}

/// A malformed entry in a `.strings` file.
public struct StringsFileError: Error, CustomStringConvertible, Sendable {
    /// The file's path.
    public var fileName: String
    /// The line of the mistake, from 1.
    public var line: Int
    /// The column of the mistake, from 1.
    public var column: Int
    /// What is wrong.
    public var message: String

    public var description: String { "\(fileName):\(line):\(column): error: \(message)" }
}

/// Reads the `.strings` format: `"key" = "value";` entries, `/* */` and `//` comments,
/// and the escapes `\"`, `\\`, `\n`, `\t`, `\r` and `\UXXXX`.
enum StringsFileParser {
    static func parse(_ text: String, fileName: String) throws -> [String: String] {
        var scanner = Scanner(characters: Array(text.unicodeScalars), fileName: fileName)
        var entries: [String: String] = [:]
        while true {
            try scanner.skipSpaceAndComments()
            guard !scanner.isAtEnd else { break }
            let key = try scanner.quotedString()
            try scanner.skipSpaceAndComments()
            try scanner.expect("=", hint: "write \"key\" = \"value\";")
            try scanner.skipSpaceAndComments()
            let value = try scanner.quotedString()
            try scanner.skipSpaceAndComments()
            try scanner.expect(";", hint: "end each entry with a semicolon")
            entries[key] = value
        }
        return entries
    }

    struct Scanner {
        let characters: [Unicode.Scalar]
        let fileName: String
        var position = 0

        init(characters: [Unicode.Scalar], fileName: String) {
            self.characters = characters
            self.fileName = fileName
        }

        var isAtEnd: Bool { position >= characters.count }

        func error(_ message: String) -> StringsFileError {
            var line = 1
            var column = 1
            for character in characters[..<min(position, characters.count)] {
                if character == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
            return StringsFileError(fileName: fileName, line: line, column: column, message: message)
        }

        mutating func skipSpaceAndComments() throws {
            while !isAtEnd {
                let character = characters[position]
                if character.properties.isWhitespace {
                    position += 1
                } else if character == "/", position + 1 < characters.count, characters[position + 1] == "/" {
                    while !isAtEnd, characters[position] != "\n" { position += 1 }
                } else if character == "/", position + 1 < characters.count, characters[position + 1] == "*" {
                    position += 2
                    while position + 1 < characters.count, !(characters[position] == "*" && characters[position + 1] == "/") {
                        position += 1
                    }
                    guard position + 1 < characters.count else { throw error("unterminated comment") }
                    position += 2
                } else {
                    return
                }
            }
        }

        mutating func expect(_ character: Unicode.Scalar, hint: String) throws {
            guard !isAtEnd, characters[position] == character else {
                throw error("expected '\(character)': \(hint)")
            }
            position += 1
        }

        mutating func quotedString() throws -> String {
            try expect("\"", hint: "keys and values are written in double quotes")
            var result = String.UnicodeScalarView()
            while !isAtEnd {
                let character = characters[position]
                position += 1
                switch character {
                case "\"":
                    return String(result)
                case "\\":
                    guard !isAtEnd else { throw error("unterminated escape") }
                    let escaped = characters[position]
                    position += 1
                    switch escaped {
                    case "n": result.append("\n")
                    case "t": result.append("\t")
                    case "r": result.append("\r")
                    case "U", "u":
                        let digits = String(String.UnicodeScalarView(characters[position..<min(position + 4, characters.count)]))
                        guard digits.count == 4, let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) else {
                            throw error("\\U needs four hexadecimal digits")
                        }
                        result.append(scalar)
                        position += 4
                    default: result.append(escaped)
                    }
                default:
                    result.append(character)
                }
            }
            throw error("unterminated string: add the closing '\"'")
        }
    }
}
