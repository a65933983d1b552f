/// The text of a workflow file split into lines the way YAML parsers count them.
///
/// Line breaks are `\n`, `\r\n`, `\r`, U+0085, U+2028 and U+2029; columns count Unicode
/// scalars and a leading byte order mark is not part of line 1. Every position handed out
/// is clamped into the file, so that a diagnostic never points past its end.
struct SourceText: Sendable {
    /// The lines, without their line breaks; there is always at least one (maybe empty) line.
    let lines: [[Unicode.Scalar]]
    /// The offset, in Unicode scalars of the whole text, at which each line starts.
    let lineStarts: [Int]

    init(_ text: String) {
        var lines: [[Unicode.Scalar]] = []
        var lineStarts: [Int] = [0]
        var current: [Unicode.Scalar] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var endedWithBreak = false
        while index < scalars.count {
            let scalar = scalars[index]
            if index == 0 && scalar == "\u{FEFF}" {
                index += 1
                lineStarts[0] = 1
                continue
            }
            if Self.isLineBreak(scalar) {
                if scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n" {
                    index += 1
                }
                lines.append(current)
                current = []
                index += 1
                lineStarts.append(index)
                endedWithBreak = true
                continue
            }
            current.append(scalar)
            endedWithBreak = false
            index += 1
        }
        if !endedWithBreak || lines.isEmpty {
            lines.append(current)
        } else {
            lineStarts.removeLast()
        }
        self.lines = lines
        self.lineStarts = lineStarts
    }

    /// Whether a scalar ends a line in YAML.
    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}": return true
        default: return false
        }
    }

    var lineCount: Int { lines.count }

    /// The scalars of a 1-based line, or `nil` outside the file.
    func line(_ number: Int) -> [Unicode.Scalar]? {
        guard number >= 1 && number <= lines.count else { return nil }
        return lines[number - 1]
    }

    /// The text of a 1-based line, or `nil` outside the file.
    func lineText(_ number: Int) -> String? {
        guard let scalars = line(number) else { return nil }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }

    /// Moves a line and column into the file: past the last line means the end of the last
    /// line, past the end of a line means just after its last column.
    func clamped(line: Int, column: Int) -> (line: Int, column: Int) {
        if line > lines.count {
            return (lines.count, lines[lines.count - 1].count + 1)
        }
        let clampedLine = max(1, line)
        let lastColumn = lines[clampedLine - 1].count + 1
        return (clampedLine, min(max(1, column), lastColumn))
    }

    /// The line and column of the scalar at an offset counted in Unicode scalars of the whole text.
    func point(atScalarOffset offset: Int) -> (line: Int, column: Int) {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return clamped(line: low + 1, column: offset - lineStarts[low] + 1)
    }
}
