import IntentKit

extension ValidationPass {
    /// Reports a default that cannot be a value of its input's type, at the default (or at the
    /// element of a list default that cannot be one).
    mutating func checkDefault(_ defaultValue: ValueNode, of input: InputDeclaration, declared: IntentValueType?) {
        let valueType = type(of: defaultValue)
        guard let declared else { return }
        let what = "the default of input '\(input.name.value)'"
        if case .list(let elements, _) = defaultValue, let elementType = declared.nonOptional.elementType {
            for element in elements {
                check(element, ofType: type(of: element), feeds: elementType, name: what)
            }
            return
        }
        check(defaultValue, ofType: valueType, feeds: declared, name: what)
    }
}
