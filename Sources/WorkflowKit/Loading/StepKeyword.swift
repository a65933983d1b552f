/// The key that gives a step its kind, with the other keys that kind accepts.
///
/// Every step may also have `id:`. No other per-step keys exist.
enum StepKeyword: String, CaseIterable {
    case perform, find, filter, show, set, append
    case `if`, `repeat`, menu, ask, run, wait, stop, fail, comment, search
    case `break`, `continue`, `try`, parallel

    /// Keys allowed beside the kind key (besides `id`).
    var settingKeys: [String] {
        switch self {
        case .perform: return ["with", "openWhenRun"]
        case .find, .filter: return ["where", "all", "any", "sortBy", "limit"]
        case .set, .append: return ["to"]
        case .if: return ["then", "else"]
        case .repeat: return ["steps"]
        case .menu: return ["options"]
        case .ask: return ["type", "default", "choose", "multiple"]
        case .run: return ["with"]
        case .search: return ["entity", "index", "limit", "semantic"]
        case .try: return ["catch", "finally"]
        case .fail: return ["data"]
        case .show, .wait, .stop, .comment, .break, .continue, .parallel: return []
        }
    }

    /// The keys every step may have besides its kind's (`continueOnError` and `timeout` are
    /// refused where they mean nothing, with the reason).
    static let commonKeys = ["id", "continueOnError", "timeout"]

    /// Every key a step of any kind may have.
    static let allKeys: [String] = {
        var keys = commonKeys
        for keyword in allCases {
            keys.append(keyword.rawValue)
            keys.append(contentsOf: keyword.settingKeys.filter { !keys.contains($0) })
        }
        return keys
    }()

    /// The kinds whose steps accept a setting key, for "only allowed in" messages.
    static func kinds(accepting key: String) -> [StepKeyword] {
        allCases.filter { $0.settingKeys.contains(key) }
    }
}
