import Foundation

/// A type as the metadata writes it (`String`, `[BookEntity]`, `Date?`, `[String: Int]`).
///
/// ```swift
/// DeclaredType("[BookEntity]?")   // .optional(.list(.named("BookEntity")))
/// ```
indirect enum DeclaredType: Equatable, Sendable {
    case named(String)
    case list(DeclaredType)
    case dictionary(DeclaredType)
    case optional(DeclaredType)

    init(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("?") {
            self = .optional(DeclaredType(String(text.dropLast())))
        } else if text.hasPrefix("[String:"), text.hasSuffix("]") {
            self = .dictionary(DeclaredType(String(text.dropFirst(8).dropLast())))
        } else if text.hasPrefix("["), text.hasSuffix("]") {
            self = .list(DeclaredType(String(text.dropFirst().dropLast())))
        } else {
            self = .named(text)
        }
    }
}
