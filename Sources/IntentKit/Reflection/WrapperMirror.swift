/// Finds the property wrappers of a value with `Mirror`, as swift-argument-parser does: children
/// labelled `_name` hold the wrapper of property `name`; superclasses come first.
enum WrapperMirror {
    static func wrappers<Wrapper>(of value: Any, as type: Wrapper.Type) -> [(name: String, wrapper: Wrapper)] {
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: value)
        while let current = mirror {
            mirrors.insert(current, at: 0)
            mirror = current.superclassMirror
        }
        return mirrors.flatMap { mirror in
            mirror.children.compactMap { child -> (name: String, wrapper: Wrapper)? in
                guard let label = child.label, label.hasPrefix("_"), let wrapper = child.value as? Wrapper else { return nil }
                return (String(label.dropFirst()), wrapper)
            }
        }
    }
}
