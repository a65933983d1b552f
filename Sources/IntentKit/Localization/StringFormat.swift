/// Formats `printf`-style localized strings whose arguments are already text: `%@`, `%d`,
/// `%lld`, `%lf`, `%f`, positional `%2$@`, and `%%`.
///
/// ```swift
/// StringFormat.format("%2$@ by %1$@", arguments: ["Delia Owens", "Where the Crawdads Sing"])
/// // "Where the Crawdads Sing by Delia Owens"
/// ```
enum StringFormat {
    static func format(_ format: String, arguments: [String]) -> String {
        var output = ""
        var nextArgument = 0
        var index = format.startIndex
        while index < format.endIndex {
            let character = format[index]
            index = format.index(after: index)
            guard character == "%" else {
                output.append(character)
                continue
            }
            guard index < format.endIndex else {
                output.append("%")
                break
            }
            if format[index] == "%" {
                output.append("%")
                index = format.index(after: index)
                continue
            }
            // Optional position: digits followed by `$`.
            var position: Int?
            var lookahead = index
            var digits = ""
            while lookahead < format.endIndex, format[lookahead].isASCII, format[lookahead].isNumber {
                digits.append(format[lookahead])
                lookahead = format.index(after: lookahead)
            }
            if !digits.isEmpty, lookahead < format.endIndex, format[lookahead] == "$" {
                position = Int(digits).map { $0 - 1 }
                index = format.index(after: lookahead)
            }
            // Skip flags, width, precision and length modifiers up to the conversion letter.
            var specifier = ""
            while index < format.endIndex, "0123456789.-+ #lhqjztL".contains(format[index]) {
                specifier.append(format[index])
                index = format.index(after: index)
            }
            guard index < format.endIndex else {
                output += "%" + specifier
                break
            }
            let conversion = format[index]
            index = format.index(after: index)
            guard "@dDiuUxXoOfFeEgGcsSp".contains(conversion) else {
                output += "%" + specifier + String(conversion)
                continue
            }
            let argumentIndex = position ?? nextArgument
            if position == nil { nextArgument += 1 }
            output += arguments.indices.contains(argumentIndex) ? arguments[argumentIndex] : ""
        }
        return output
    }
}
