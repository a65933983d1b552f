/// Maps each character of a scalar's value back to its line and column in the file.
///
/// The value a YAML parser returns differs from what is written: quotes are removed,
/// escapes (`\"`, `\u00e9`, `''`) are resolved, and line breaks in multi-line scalars are
/// folded. The map walks the written text from the scalar's start alongside the value, so
/// that an expression inside `"Added ${book}"` is located at the column of its `${`. It is
/// exact for one-line plain and quoted scalars and a close approximation for multi-line and
/// block scalars.
struct ScalarSourceMap {
    typealias Point = (line: Int, column: Int)

    /// Where the scalar's token starts: its first character, opening quote or block indicator.
    let start: Point
    /// Just after the scalar's last character (after its closing quote).
    let end: Point
    private let storage: Storage

    private enum Storage {
        /// The value is written as is on one line, from `first`: the common case, mapped without a walk.
        case verbatim(first: Point, count: Int)
        /// `positions[i]` is where the value's i-th Unicode scalar is written.
        case walked([Point])
    }

    init(value: [Unicode.Scalar], quoting: ScalarStyle, line: Int, column: Int, source: SourceText) {
        var cursor = Cursor(source: source, line: line, column: column)
        cursor.skipNodeProperties()
        start = cursor.point
        switch quoting {
        case .singleQuoted:
            if cursor.current == .character("'") { cursor.advance() }
        case .doubleQuoted:
            if cursor.current == .character("\"") { cursor.advance() }
        case .literal, .folded:
            cursor.moveToNextLine()
        case .plain:
            break
        }
        if quoting != .literal && quoting != .folded,
            let verbatimEnd = Self.verbatimEnd(of: value, at: cursor, quoting: quoting, source: source)
        {
            storage = .verbatim(first: cursor.point, count: value.count)
            end = verbatimEnd
            return
        }
        var positions: [Point] = []
        positions.reserveCapacity(value.count)
        var index = 0
        walk: while index < value.count {
            let expected = value[index]
            let current = cursor.current
            if quoting == .doubleQuoted, current == .character("\\") {
                let next = cursor.peek(1)
                if next == .lineBreak {
                    cursor.advance()
                    cursor.advance()
                    cursor.skipSpaces()
                    continue
                }
                positions.append(cursor.point)
                cursor.advance(by: Self.escapeLength(next))
                index += 1
                continue
            }
            if quoting == .singleQuoted, current == .character("'"), cursor.peek(1) == .character("'") {
                positions.append(cursor.point)
                cursor.advance(by: 2)
                index += 1
                continue
            }
            if current == .character(expected) || (current == .lineBreak && expected == "\n") {
                positions.append(cursor.point)
                cursor.advance()
                index += 1
                continue
            }
            switch current {
            case .character(" "), .character("\t"), .lineBreak:
                cursor.advance()
                continue walk
            default:
                break
            }
            if expected == " " || expected == "\t" || expected == "\n" {
                positions.append(cursor.point)
                index += 1
                continue
            }
            break walk
        }
        while positions.count < value.count {
            positions.append(cursor.point)
        }
        if quoting == .singleQuoted && cursor.current == .character("'")
            || quoting == .doubleQuoted && cursor.current == .character("\"")
        {
            cursor.advance()
        }
        self.storage = .walked(positions)
        self.end = cursor.point
    }

    /// The end of the scalar when its value is written character for character on the line
    /// at `cursor` (and, when quoted, followed by the closing quote); `nil` otherwise.
    private static func verbatimEnd(of value: [Unicode.Scalar], at cursor: Cursor, quoting: ScalarStyle, source: SourceText) -> Point? {
        let line = source.lines[cursor.line]
        let afterValue = cursor.column + value.count
        guard afterValue <= line.count, line[cursor.column..<afterValue].elementsEqual(value) else { return nil }
        switch quoting {
        case .singleQuoted, .doubleQuoted:
            let quote: Unicode.Scalar = quoting == .singleQuoted ? "'" : "\""
            guard afterValue < line.count, line[afterValue] == quote else { return nil }
            if quoting == .singleQuoted, afterValue + 1 < line.count, line[afterValue + 1] == "'" { return nil }
            return (cursor.line + 1, afterValue + 2)
        default:
            return (cursor.line + 1, afterValue + 1)
        }
    }

    /// Where the value's scalar at `offset` is written; `offset == count` gives ``end``.
    func position(at offset: Int) -> Point {
        switch storage {
        case .verbatim(let first, let count):
            if offset >= 0 && offset < count {
                return (first.line, first.column + offset)
            }
        case .walked(let positions):
            if offset >= 0 && offset < positions.count {
                return positions[offset]
            }
        }
        return offset < 0 ? start : end
    }

    private static func escapeLength(_ next: Cursor.Element) -> Int {
        switch next {
        case .character("x"): return 4
        case .character("u"): return 6
        case .character("U"): return 10
        default: return 2
        }
    }
}

/// A reading position in a ``SourceText``.
private struct Cursor {
    enum Element: Equatable {
        case character(Unicode.Scalar)
        case lineBreak
        case end
    }

    let source: SourceText
    /// 0-based line index and column index.
    var line: Int
    var column: Int

    init(source: SourceText, line: Int, column: Int) {
        let point = source.clamped(line: line, column: column)
        self.source = source
        self.line = point.line - 1
        self.column = point.column - 1
    }

    var point: ScalarSourceMap.Point {
        (line + 1, column + 1)
    }

    var current: Element {
        let scalars = source.lines[line]
        if column < scalars.count {
            return .character(scalars[column])
        }
        return line + 1 < source.lines.count ? .lineBreak : .end
    }

    /// The element `distance` places ahead, without moving.
    func peek(_ distance: Int) -> Element {
        var ahead = self
        ahead.advance(by: distance)
        return ahead.current
    }

    mutating func advance(by count: Int = 1) {
        for _ in 0..<max(0, count) {
            if column < source.lines[line].count {
                column += 1
            } else if line + 1 < source.lines.count {
                line += 1
                column = 0
            } else {
                return
            }
        }
    }

    mutating func moveToNextLine() {
        if line + 1 < source.lines.count {
            line += 1
            column = 0
        }
    }

    mutating func skipSpaces() {
        while current == .character(" ") || current == .character("\t") {
            advance()
        }
    }

    /// Skips an anchor (`&name`) or tag (`!tag`) written before the scalar.
    mutating func skipNodeProperties() {
        while current == .character("&") || current == .character("!") {
            while case .character(let scalar) = current, scalar != " ", scalar != "\t" {
                advance()
            }
            while current == .character(" ") || current == .character("\t") || current == .lineBreak {
                advance()
            }
        }
    }
}
