/// A new random token: 32 bytes from the system's secure generator, as 64 hexadecimal digits.
/// Sessions and form tokens are made of them.
///
/// ```swift
/// let session = RandomToken.make()   // "9f1c…"
/// ```
enum RandomToken {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for _ in 0..<4 {
            let word = generator.next()
            let digits = String(word, radix: 16)
            text += String(repeating: "0", count: 16 - digits.count) + digits
        }
        return text
    }

    /// Whether a text has the form of a token (so that a cookie's value is used only if it does).
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
