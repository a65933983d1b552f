/// The line drawn under a one-line text to point at part of it: blanks up to the part, a caret
/// under its first character, tildes under the rest.
///
/// ```
///   keywords == "ねこ" &&
///                      ^
/// ```
///
/// Characters that a terminal draws two cells wide (Chinese, Japanese and Korean text,
/// most emoji) take two blanks before the caret and two marks under the part; combining marks
/// take none; tabs are repeated, so the caret lines up whatever the tab width. Every caret the
/// command line draws comes from here, and ``DiagnosticRenderer`` draws its excerpts' carets
/// with it.
///
/// ```swift
/// CaretLine.draw(under: "shortcuts perform Library.AddBook athorName=Delia", columns: 34..<43)
/// // "                                  ^~~~~~~~~"
/// ```
package enum CaretLine {
    /// The caret line under the characters `columns` of `text` (counted in `Character`s from 0).
    ///
    /// - Parameters:
    ///   - text: The line the caret is drawn under.
    ///   - columns: The characters to mark; past the end of the text each column counts as one
    ///     cell, and an empty range still gets its caret.
    /// - Returns: The caret line, without trailing blanks.
    package static func draw(under text: String, columns: Range<Int>) -> String {
        let characters = Array(text)
        let start = max(0, columns.lowerBound)
        let leading = characters.prefix(start)
        let marked = characters.dropFirst(start).prefix(max(0, columns.upperBound - start))
        let beyond = max(0, columns.upperBound - max(start, characters.count))
        let padding = max(0, start - characters.count)
        return draw(
            leading: String(leading) + String(repeating: " ", count: padding),
            marked: String(marked) + String(repeating: " ", count: beyond))
    }

    /// The caret line under `marked` when `leading` is printed before it on the same line.
    ///
    /// ```swift
    /// CaretLine.draw(leading: "\tname: ", marked: "ねこ")   // "\t      ^~~"
    /// ```
    ///
    /// - Parameters:
    ///   - leading: The text before the marked part.
    ///   - marked: The marked part; when empty, the caret alone.
    /// - Returns: The caret line.
    package static func draw(leading: String, marked: String) -> String {
        var line = ""
        for character in leading {
            if character == "\t" {
                line.append("\t")
            } else {
                line += String(repeating: " ", count: width(of: character))
            }
        }
        let markedWidth = marked.reduce(0) { $0 + width(of: $1) }
        return line + "^" + String(repeating: "~", count: max(markedWidth, 1) - 1)
    }

    /// How many cells a terminal draws a character in: 2 for wide characters, 0 for a control
    /// character or a lone combining mark, else 1.
    static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.properties.generalCategory == .control || first.properties.generalCategory == .nonspacingMark
            || first.properties.generalCategory == .enclosingMark || first.value == 0x200B
        {
            return 0
        }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) || isWide(first.value) { return 2 }
        return 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, W and F), and the
    /// emoji blocks terminals draw wide.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3, 0x25FD...0x25FE,
            0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
            0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C,
            0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
            0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A,
            0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF,
            0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
