import Foundation
import IntentKit

/// The variables a running workflow sees: inputs, step outputs by id, `set` variables,
/// loop variables, `previous`, `now` and `index`.
struct RunScope {
    private(set) var variables: [String: IntentValue] = [:]
    var previous: IntentValue = .null
    var index: IntentValue?

    init(inputs: [String: IntentValue]) {
        variables["input"] = .dictionary(inputs)
    }

    subscript(name: String) -> IntentValue? {
        switch name {
        case "previous": previous
        case "now": .date(Date())
        case "index": index ?? variables["index"]
        default: variables[name]
        }
    }

    mutating func assign(_ value: IntentValue, to name: String) {
        variables[name] = value
    }

    var names: [String] { Array(variables.keys) + ["previous", "now"] + (index == nil ? [] : ["index"]) }
}
