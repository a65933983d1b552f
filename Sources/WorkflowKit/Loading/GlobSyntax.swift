/// Globs on file names, as `fnmatch` reads them: `*`, `?`, `[abc]`, `[!a-z]`, `\*`.
package enum GlobSyntax {
    /// A mistake in a glob: what is wrong, at which character (counted in Unicode scalars from
    /// 0), and how to fix it.
    package struct Problem: Equatable {
        package var message: String
        package var offset: Int
        package var length: Int
        package var help: String
    }

    /// The first mistake of a glob on file names, or `nil` when `fnmatch` reads it as meant.
    ///
    /// ```swift
    /// GlobSyntax.problem(in: "*.[pP]df")   // nil
    /// GlobSyntax.problem(in: "[a-z*.pdf")  // unclosed '[' at offset 0
    /// ```
    package static func problem(in pattern: String) -> Problem? {
        let scalars = Array(pattern.unicodeScalars)
        guard !scalars.isEmpty else {
            return Problem(
                message: "the pattern is empty", offset: 0, length: 1, help: "write a glob such as '*.pdf', or remove 'pattern' for every file")
        }
        var index = 0
        while index < scalars.count {
            switch scalars[index] {
            case "/":
                return Problem(
                    message: "a pattern matches a file's name, which has no '/'", offset: index, length: 1,
                    help: "put the folder in 'path:' and keep the name's pattern here, such as '*.pdf'")
            case "\\":
                guard index + 1 < scalars.count else {
                    return Problem(
                        message: "the pattern ends with '\\', which escapes nothing", offset: index, length: 1,
                        help: "remove it, or write '\\\\' for a backslash")
                }
                index += 2
            case "[":
                var end = index + 1
                if end < scalars.count, scalars[end] == "!" || scalars[end] == "^" { end += 1 }
                // A ']' first in the set is one of its characters.
                if end < scalars.count, scalars[end] == "]" { end += 1 }
                while end < scalars.count, scalars[end] != "]" { end += 1 }
                guard end < scalars.count else {
                    return Problem(
                        message: "unclosed '[' in the pattern", offset: index, length: scalars.count - index,
                        help: "close the set with ']', such as '[0-9]', or write '\\[' for a '['")
                }
                index = end + 1
            default:
                index += 1
            }
        }
        return nil
    }
}
