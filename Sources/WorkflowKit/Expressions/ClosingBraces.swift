/// Where the `${` expressions of a text end, found for every offset in one pass.
///
/// The `}` that closes a `${` is the first one after it at which the braces in between
/// balance, not counting braces inside quoted text (`'…'` or `"…"`, where `\` escapes the
/// next character). Scanning forward from each `${` would read to the end of the text for
/// every `${` that is not closed, so that a text with many of them would cost the square of
/// its length; this table is filled from the end of the text instead, once, in time linear
/// in its length, and answers each question in constant time.
///
/// ```swift
/// let scalars = Array("${a + {b}} ${c".unicodeScalars)
/// let braces = ClosingBraces(scalars, in: 2..<scalars.count)
/// braces.closingBrace(after: 2)    // 9
/// braces.closingBrace(after: 13)   // nil
/// ```
struct ClosingBraces {
    /// The first offset of the part of the text read.
    private let start: Int
    /// For each offset from `start` to the end of the part: the offset of the `}` at which a
    /// reading that starts there outside quotes, with no brace open, ends; `-1` for none.
    private let ends: [Int]

    /// Reads `scalars[range]`; a `}` beyond the range closes nothing.
    ///
    /// - Parameters:
    ///   - scalars: The text.
    ///   - range: The part of the text to read, such as one line.
    init(_ scalars: [Unicode.Scalar], in range: Range<Int>) {
        let none = -1
        var ends = [Int](repeating: none, count: range.count + 1)
        // Where a reading inside single or double quotes ends, when it is at the next offset
        // and at the one after.
        var singleQuoted = (next: none, afterNext: none)
        var doubleQuoted = (next: none, afterNext: none)
        for offset in range.reversed() {
            let scalar = scalars[offset]
            let index = offset - range.lowerBound
            let fromNext = ends[index + 1]
            switch scalar {
            case "'":
                ends[index] = singleQuoted.next
            case "\"":
                ends[index] = doubleQuoted.next
            case "{":
                ends[index] = fromNext == none ? none : ends[fromNext + 1 - range.lowerBound]
            case "}":
                ends[index] = offset
            default:
                ends[index] = fromNext
            }
            // Inside quotes, `\` skips the next character and the closing quote returns to
            // reading outside quotes.
            let singleHere = scalar == "\\" ? singleQuoted.afterNext : scalar == "'" ? fromNext : singleQuoted.next
            let doubleHere = scalar == "\\" ? doubleQuoted.afterNext : scalar == "\"" ? fromNext : doubleQuoted.next
            singleQuoted = (singleHere, singleQuoted.next)
            doubleQuoted = (doubleHere, doubleQuoted.next)
        }
        self.start = range.lowerBound
        self.ends = ends
    }

    /// The offset of the `}` that closes a `${` whose inside starts at `offset`; `nil` when
    /// none in the part read closes it.
    ///
    /// - Parameter offset: An offset in the part read, or just after it.
    func closingBrace(after offset: Int) -> Int? {
        let end = ends[offset - start]
        return end < 0 ? nil : end
    }
}
