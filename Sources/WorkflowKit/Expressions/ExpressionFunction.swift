import Foundation
import IntentKit
import ValueFunctions

/// A function that expressions can call, such as `upper(text)` or `dateAdd(date, 1, "day")`.
///
/// Every function is one row of ``ExpressionFunction/table``: its name, the kinds of its
/// arguments (the validator checks them, the evaluator converts to them), the type of its
/// result, and an implementation that calls the ValueFunctions module.
///
/// ```swift
/// let upper = ExpressionFunction.table["upper"]!
/// print(upper.signature)   // upper(text)
/// ```
struct ExpressionFunction: Sendable {
    /// What an argument must be.
    enum Argument: String, Sendable {
        case text, number, list, date, any

        /// Whether a value of a static type can be passed (`Any` always can).
        func accepts(_ type: IntentValueType) -> Bool {
            switch (self, type.nonOptional) {
            case (.any, _), (_, .any): true
            case (.text, .string), (.text, .int), (.text, .double), (.text, .bool), (.text, .url), (.text, .uuid),
                (.text, .enumeration), (.text, .entity), (.text, .date), (.text, .file):
                true
            case (.number, .int), (.number, .double), (.number, .string): true
            case (.list, .list): true
            case (.date, .date), (.date, .string): true
            default: false
            }
        }
    }

    let name: String
    /// The arguments in order; the last `optional` of them may be left out.
    let arguments: [Argument]
    let optional: Int
    /// Whether more arguments of the last kind may follow (`format`, `min`, `max`).
    let variadic: Bool
    /// How the result's type follows from the arguments' types.
    enum Result: Sendable {
        /// Always this type.
        case fixed(IntentValueType)
        /// `Int` when every argument is an integer or a list of integers, else `Double`.
        case numeric
        /// The element type of the first argument, a list.
        case element
        /// The type of the first argument.
        case sameAsFirst
        /// `Int` with one argument, `Double` with two (`round(x)`, `round(x, places)`).
        case rounded

        func type(for arguments: [IntentValueType]) -> IntentValueType {
            switch self {
            case .fixed(let type): type
            case .numeric: arguments.allSatisfy { $0 == .int || $0 == .list(.int) } ? .int : .double
            case .element: arguments.first?.elementType ?? .any
            case .sameAsFirst: arguments.first ?? .any
            case .rounded: arguments.count > 1 ? .double : .int
            }
        }
    }

    let resultRule: Result

    /// The result's type given the arguments' types.
    func result(_ arguments: [IntentValueType]) -> IntentValueType { resultRule.type(for: arguments) }
    /// The function itself, given converted arguments and the time now by the run's clock
    /// (which only `now()` and `today()` read).
    let body: @Sendable (_ arguments: [IntentValue], _ now: Date) throws -> IntentValue
    /// Checks of arguments written as literal text, by position: each returns what is wrong
    /// (a date pattern, a unit, a time zone), so validation reports it before the run.
    var literalChecks: [Int: @Sendable (String) -> String?] = [:]

    /// The function with a check of a literal text argument.
    func checking(argument position: Int, _ check: @escaping @Sendable (String) -> String?) -> ExpressionFunction {
        var function = self
        function.literalChecks[position] = check
        return function
    }

    /// The problem with a literal text argument, as a thrown error's description.
    static func problem(_ body: @escaping @Sendable (String) throws -> Void) -> @Sendable (String) -> String? {
        { text in
            do {
                try body(text)
                return nil
            } catch {
                return "\(error)"
            }
        }
    }

    init(
        _ name: String, _ arguments: [Argument], optional: Int = 0, variadic: Bool = false,
        result: Result,
        _ body: @escaping @Sendable ([IntentValue]) throws -> IntentValue
    ) {
        self.name = name
        self.arguments = arguments
        self.optional = optional
        self.variadic = variadic
        self.resultRule = result
        self.body = { arguments, _ in try body(arguments) }
    }

    /// A function of the time now, with no arguments: `now()`, `today()`.
    init(_ name: String, returns: IntentValueType, reading body: @escaping @Sendable (_ now: Date) -> IntentValue) {
        self.name = name
        self.arguments = []
        self.optional = 0
        self.variadic = false
        self.resultRule = .fixed(returns)
        self.body = { _, now in body(now) }
    }

    init(
        _ name: String, _ arguments: [Argument], optional: Int = 0, variadic: Bool = false, returns: IntentValueType,
        _ body: @escaping @Sendable ([IntentValue]) throws -> IntentValue
    ) {
        self.init(name, arguments, optional: optional, variadic: variadic, result: .fixed(returns), body)
    }

    /// How many arguments the function takes.
    var arity: ClosedRange<Int> { (arguments.count - optional)...(variadic ? Int.max : arguments.count) }

    /// The kind of the argument at a position.
    func argument(at position: Int) -> Argument { arguments[min(position, arguments.count - 1)] }

    /// The function as it is called, such as `dateAdd(date, amount, unit)`.
    var signature: String {
        var parts = arguments.enumerated().map { $1.rawValue + ($0 >= arguments.count - optional ? "?" : "") }
        if variadic { parts.append("…") }
        return "\(name)(\(parts.joined(separator: ", ")))"
    }

    /// Every function, by name.
    static let table: [String: ExpressionFunction] = Dictionary(
        uniqueKeysWithValues: (textFunctions + numberFunctions + listFunctions + dateFunctions + jsonFunctions).map { ($0.name, $0) })

    private static let textFunctions: [ExpressionFunction] = [
        .init("upper", [.text], returns: .string) { .string(TextFunctions.changeCase($0[0].text, to: .upper)) },
        .init("lower", [.text], returns: .string) { .string(TextFunctions.changeCase($0[0].text, to: .lower)) },
        .init("trim", [.text], returns: .string) { .string(TextFunctions.trim($0[0].text)) },
        .init("replace", [.text, .text, .text], returns: .string) {
            .string(try TextFunctions.replace($0[0].text, $0[1].text, with: $0[2].text))
        },
        .init("split", [.text, .text], returns: .list(.string)) {
            .list(try TextFunctions.split($0[0].text, by: .text($0[1].text)).map(IntentValue.string))
        },
        .init("join", [.list, .text], optional: 1, returns: .string) {
            .string(TextFunctions.join($0[0].elements, separator: $0.count > 1 ? $0[1].text : ", "))
        },
        .init("contains", [.any, .any], returns: .bool) { .bool(ValueComparison.contains($0[0], $0[1])) },
        .init("startsWith", [.text, .text], returns: .bool) { .bool(ValueComparison.hasPrefix($0[0], $0[1])) },
        .init("endsWith", [.text, .text], returns: .bool) { .bool(ValueComparison.hasSuffix($0[0], $0[1])) },
        .init("length", [.any], returns: .int) { arguments in
            switch arguments[0] {
            case .list(let elements): .int(elements.count)
            case .dictionary(let entries): .int(entries.count)
            case .null: .int(0)
            case let value: .int(TextFunctions.length(value.displayText))
            }
        },
        .init("format", [.text, .any], optional: 1, variadic: true, returns: .string) {
            .string(try TextFunctions.format($0[0].text, $0.dropFirst().map(\.displayText)))
        }
    ]

    private static let numberFunctions: [ExpressionFunction] = [
        .init("round", [.number, .number], optional: 1, result: .rounded) {
            .number(MathFunctions.round($0[0].number, places: $0.count > 1 ? max(-15, min(15, $0[1].whole)) : 0))
        },
        .init("floor", [.number], returns: .int) { .number(MathFunctions.round($0[0].number, rule: .down)) },
        .init("ceil", [.number], returns: .int) { .number(MathFunctions.round($0[0].number, rule: .up)) },
        .init("abs", [.number], result: .numeric) { arguments in
            if case .int(let value) = arguments[0], value != .min { return .int(Swift.abs(value)) }
            return .double(MathFunctions.abs(arguments[0].number))
        },
        .init("min", [.any], variadic: true, result: .numeric) { try extreme(of: $0, .minimum) },
        .init("max", [.any], variadic: true, result: .numeric) { try extreme(of: $0, .maximum) },
        .init("sum", [.list], result: .numeric) { arguments in
            let total = try StatisticsFunctions.measure(.sum, of: StatisticsFunctions.numbers(from: arguments[0].elements))
            return arguments[0].elements.allSatisfy { if case .int = $0 { true } else { false } } ? .number(total) : .double(total)
        },
        .init("average", [.list], returns: .double) {
            .double(try StatisticsFunctions.measure(.average, of: StatisticsFunctions.numbers(from: $0[0].elements)))
        }
    ]

    private static let listFunctions: [ExpressionFunction] = [
        .init("first", [.list], result: .element) { try ListFunctions.first($0[0].elements) },
        .init("last", [.list], result: .element) { try ListFunctions.last($0[0].elements) },
        .init("sort", [.list, .text], optional: 1, result: .sameAsFirst) {
            .list(try ListFunctions.sort($0[0].elements, by: $0.count > 1 ? $0[1].text : nil))
        },
        .init("unique", [.list], result: .sameAsFirst) { .list(try ListFunctions.unique($0[0].elements)) },
        .init("slice", [.list, .number, .number], optional: 1, result: .sameAsFirst) {
            .list(ListFunctions.slice($0[0].elements, from: $0[1].whole, to: $0.count > 2 ? $0[2].whole : nil))
        },
        .init("count", [.any], returns: .int) { arguments in
            switch arguments[0] {
            case .list(let elements): .int(elements.count)
            case .dictionary(let entries): .int(entries.count)
            case .string(let text): .int(text.count)
            case .null: .int(0)
            default: .int(1)
            }
        }
    ]

    private static let dateFunctions: [ExpressionFunction] = [
        .init("now", returns: .date) { now in .date(now) },
        .init("today", returns: .date) { now in .date(Calendar.current.startOfDay(for: now)) },
        ExpressionFunction("dateAdd", [.date, .number, .text], returns: .date) {
            .date(try DateFunctions.add($0[1].whole, DateFunctions.Unit(named: $0[2].text), to: $0[0].date))
        }
        .checking(argument: 2, unitProblem),
        ExpressionFunction("dateDiff", [.date, .date, .text], returns: .int) {
            .int(try DateFunctions.difference(from: $0[0].date, to: $0[1].date, in: DateFunctions.Unit(named: $0[2].text)))
        }
        .checking(argument: 2, unitProblem),
        ExpressionFunction("formatDate", [.date, .text, .text], optional: 1, returns: .string) {
            let zone = try DateFunctions.timeZone($0.count > 2 ? $0[2].text : nil)
            return .string(try DateFunctions.format($0[0].date, style: .pattern($0[1].text), timeZone: zone))
        }
        .checking(argument: 1, patternProblem)
        .checking(argument: 2, problem { _ = try DateFunctions.timeZone($0) }),
        ExpressionFunction("parseDate", [.text, .text], optional: 1, returns: .date) {
            .date(try DateFunctions.parse($0[0].text, pattern: $0.count > 1 ? $0[1].text : nil))
        }
        .checking(argument: 1, patternProblem)
    ]

    private static let unitProblem = problem { _ = try DateFunctions.Unit(named: $0) }
    private static let patternProblem: @Sendable (String) -> String? = { pattern in
        DateFunctions.patternProblem(in: pattern).map { "invalid date pattern: \($0)" }
    }

    private static let jsonFunctions: [ExpressionFunction] = [
        .init("toJSON", [.any], returns: .string) { .string(JSONFunctions.encode($0[0], pretty: false)) },
        .init("fromJSON", [.text], returns: .any) { try JSONFunctions.parse($0[0].text) }
    ]

    private static func extreme(of arguments: [IntentValue], _ measure: StatisticsFunctions.Measure) throws -> IntentValue {
        let values = arguments.count == 1 ? arguments[0].elements : arguments
        let result = try StatisticsFunctions.measure(measure, of: StatisticsFunctions.numbers(from: values))
        return values.allSatisfy { if case .int = $0 { true } else { false } } ? .number(result) : .double(result)
    }
}

extension IntentValue {
    /// The text of a converted argument.
    fileprivate var text: String {
        if case .string(let text) = self { return text }
        return displayText
    }

    /// The number of a converted argument.
    fileprivate var number: Double {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: 0
        }
    }

    /// The number of a converted argument as a whole number, rounded toward zero and kept
    /// within `Int`'s range (0 for not a number).
    fileprivate var whole: Int {
        let value = number
        guard !value.isNaN else { return 0 }
        if value >= 9.2e18 { return Int.max }
        if value <= -9.2e18 { return Int.min }
        return Int(value)
    }

    /// The date of a converted argument.
    fileprivate var date: Date {
        if case .date(let date) = self { return date }
        return Date(timeIntervalSince1970: 0)
    }

    /// A whole number as `.int` when it fits, otherwise `.double`.
    static func number(_ value: Double) -> IntentValue {
        if value.rounded() == value, let whole = Int(exactly: value) { return .int(whole) }
        return .double(value)
    }
}
