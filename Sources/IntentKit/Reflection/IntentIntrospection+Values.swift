import Foundation

extension IntentIntrospection {
    /// The values an intent instance's parameters hold, by name: what an intent a result opens
    /// was made with. Parameters without a value are left out.
    ///
    /// ```swift
    /// IntentIntrospection.values(of: OpenBook(book: book))   // ["book": .entity(…)]
    /// ```
    ///
    /// - Parameter intent: The intent instance.
    /// - Returns: The values by parameter name.
    package static func values(of intent: any AppIntent) -> [String: IntentValue] {
        var values: [String: IntentValue] = [:]
        for parameter in IntentReflection.parameters(of: intent) where parameter.wrapper.hasValue {
            values[parameter.name] = parameter.wrapper.currentValue
        }
        return values
    }
}
