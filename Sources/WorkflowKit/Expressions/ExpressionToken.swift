/// One token of an expression, with the offsets it spans in the scalar's text.
struct ExpressionToken: Equatable {
    enum Kind: Equatable {
        case integer(Int)
        case number(Double)
        case text(String)
        case name(String)
        /// An operator or punctuation: `+ - * / % == != < <= > >= && || ! ? ?? ?. : , . ( ) [ ] { }`.
        case symbol(String)
        case end
    }

    var kind: Kind
    var start: Int
    var end: Int
}

/// A problem found while reading an expression, at an offset of the scalar's text.
struct ExpressionSyntaxError: Error {
    var message: String
    var offset: Int
    var help: String?
}
