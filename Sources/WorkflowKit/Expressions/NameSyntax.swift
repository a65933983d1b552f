/// The spelling of names in workflows: variables, step ids, properties and parameters.
///
/// A name starts with a letter or `_` and continues with letters, digits or `_`.
enum NameSyntax {
    static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || (scalar.isASCII ? isASCIILetter(scalar) : scalar.properties.isAlphabetic)
    }

    static func isNameContinuation(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || ("0"..."9").contains(scalar) || (!scalar.isASCII && scalar.properties.numericType != nil)
    }

    static func isName(_ text: String) -> Bool {
        var scalars = text.unicodeScalars.makeIterator()
        guard let first = scalars.next(), isNameStart(first) else { return false }
        while let scalar = scalars.next() {
            guard isNameContinuation(scalar) else { return false }
        }
        return true
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
