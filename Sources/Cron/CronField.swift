/// One of the six positions of a cron expression, in the order they are written
/// (the seconds field only exists in the six-field form).
enum CronField: Int, CaseIterable, Sendable, Hashable {
    case second
    case minute
    case hour
    case dayOfMonth
    case month
    case dayOfWeek

    /// The values a plain number may take in this field.
    ///
    /// Day of week accepts 0–7, where both 0 and 7 mean Sunday.
    var bounds: ClosedRange<Int> {
        switch self {
        case .second, .minute: 0...59
        case .hour: 0...23
        case .dayOfMonth: 1...31
        case .month: 1...12
        case .dayOfWeek: 0...7
        }
    }

    /// The field's name as used in error messages, e.g. "day of month".
    var displayName: String {
        switch self {
        case .second: "second"
        case .minute: "minute"
        case .hour: "hour"
        case .dayOfMonth: "day of month"
        case .month: "month"
        case .dayOfWeek: "day of week"
        }
    }

    /// Three-letter names accepted by this field, upper-cased, indexed from the
    /// field's first named value (JAN = 1, SUN = 0).
    var names: [String] {
        switch self {
        case .month: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
        case .dayOfWeek: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]
        default: []
        }
    }

    /// The numeric value of the first name in ``names``.
    var firstNamedValue: Int { self == .month ? 1 : 0 }

    /// The value of a three-letter name, case-insensitively, or `nil`.
    func value(forName name: String) -> Int? {
        let upper = name.uppercased()
        guard let index = names.firstIndex(of: upper) else { return nil }
        return index + firstNamedValue
    }

    /// The upper-cased name of a value, if the field has names for it.
    func name(forValue value: Int) -> String? {
        let normalized = self == .dayOfWeek && value == 7 ? 0 : value
        let index = normalized - firstNamedValue
        return names.indices.contains(index) ? names[index] : nil
    }

    /// Human wording of what the field accepts, used to make errors actionable.
    var acceptedValues: String {
        switch self {
        case .second, .minute, .hour: "a number \(bounds.lowerBound)–\(bounds.upperBound)"
        case .dayOfMonth: "a number 1–31, L, L-n, LW or a day followed by W"
        case .month: "a number 1–12 or a name JAN–DEC"
        case .dayOfWeek: "a number 0–7 or a name SUN–SAT"
        }
    }
}
