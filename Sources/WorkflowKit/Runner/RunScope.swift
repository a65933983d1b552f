import Clockwork
import Foundation
import IntentKit

/// The variables a running workflow sees: inputs, step outputs by id, `set` variables,
/// loop variables, `previous`, `now` and `index`.
struct RunScope {
    private(set) var variables: [String: IntentValue] = [:]
    var previous: IntentValue = .null
    var index: IntentValue?
    /// The clock `${now}`, `now()` and `today()` read.
    let clock: any EngineClock

    init(inputs: [String: IntentValue], clock: any EngineClock) {
        variables["input"] = .dictionary(inputs)
        self.clock = clock
    }

    subscript(name: String) -> IntentValue? {
        switch name {
        case "previous": previous
        case "now": .date(clock.now())
        case "index": index ?? variables["index"]
        default: variables[name]
        }
    }

    mutating func assign(_ value: IntentValue, to name: String) {
        variables[name] = value
    }

    var names: [String] { Array(variables.keys) + ["previous", "now"] + (index == nil ? [] : ["index"]) }
}
