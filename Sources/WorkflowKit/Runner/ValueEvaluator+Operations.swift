import Foundation
import IntentKit
import ValueFunctions

/// Evaluates expressions with operators, literals and function calls.
///
/// Numbers stay whole while they can (`1 + 2` is `3`, `7 / 2` is `3.5`); `+` joins text when
/// either side is text, and lists when both are; comparisons follow the engine's rules for
/// text (case and diacritics ignored). `a?.b` gives null when `a` is null, and `a ?? b` gives
/// `b` when `a` is null or missing. Every failure is a ``WorkflowRunError`` at the node.
extension ValueEvaluator {
    func evaluate(_ node: ExpressionNode, in scope: RunScope) throws -> IntentValue {
        if let path = node.path { return try evaluate(path, in: scope) }
        switch node.kind {
        case .literal(let value):
            return value
        case .list(let elements):
            return .list(try elements.map { try evaluate($0, in: scope) })
        case .dictionary(let keys, let values):
            var dictionary: [String: IntentValue] = [:]
            for (key, value) in zip(keys, values) { dictionary[key] = try evaluate(value, in: scope) }
            return .dictionary(dictionary)
        case .variable:
            return try evaluate(node.path!, in: scope)
        case .member(let base, let name, let nullSafe):
            let value = try evaluate(base, in: scope)
            if nullSafe, value.isNull { return .null }
            return try member(name, of: value, at: node.location)
        case .index(let base, let index):
            let value = try evaluate(base, in: scope)
            let position = try evaluate(index, in: scope)
            return try element(of: value, at: position, location: index.location)
        case .unary(.negate, let operand):
            switch try evaluate(operand, in: scope) {
            case .int(let value) where value != .min: return .int(-value)
            case .int(let value): return .double(-Double(value))
            case .double(let value): return .double(-value)
            case let value: throw mismatch("'-' needs a number, not \(value.kindName)", at: node.location)
            }
        case .unary(.not, let operand):
            return .bool(!(try truth(of: operand, in: scope)))
        case .unary(.condition, let operand):
            return .bool(try truth(of: operand, in: scope))
        case .binary(.and, let left, let right):
            return .bool(try truth(of: left, in: scope) && truth(of: right, in: scope))
        case .binary(.or, let left, let right):
            return .bool(try truth(of: left, in: scope) || truth(of: right, in: scope))
        case .binary(.coalesce, let left, let right):
            let value = (try? evaluate(left, in: scope)) ?? .null
            return value.isNull ? try evaluate(right, in: scope) : value
        case .binary(let op, let left, let right):
            return try apply(op, try evaluate(left, in: scope), try evaluate(right, in: scope), at: node.location)
        case .conditional(let condition, let then, let otherwise):
            return try evaluate(truth(of: condition, in: scope) ? then : otherwise, in: scope)
        case .call(let name, let arguments):
            return try call(name, arguments, at: node.location, in: scope)
        }
    }

    private func mismatch(_ message: String, at location: SourceLocation) -> WorkflowRunError {
        WorkflowRunError(message, at: location, sources: sources)
    }

    /// A condition's value: `true` or `false`, with null counting as false.
    func truth(of node: ExpressionNode, in scope: RunScope) throws -> Bool {
        switch try evaluate(node, in: scope) {
        case .bool(let flag): return flag
        case .null: return false
        case let value: throw mismatch("expected true or false, got \(value.kindName) '\(value.displayText)'", at: node.location)
        }
    }

    /// A property of a value: what ``IntentValue/member(_:)`` reads, plus the parts of a date.
    func member(_ name: String, of value: IntentValue, at location: SourceLocation) throws -> IntentValue {
        if let member = value.member(name) ?? Self.datePart(name, of: value) { return member }
        var known: [String] = []
        if case .entity(let entity) = value { known = entity.properties.keys.sorted() + ["id", "title"] }
        if case .dictionary(let entries) = value { known = entries.keys.sorted() }
        if case .date = value { known = Self.dateParts }
        if case .file = value { known = IntentFile.properties.map(\.key) }
        throw WorkflowRunError(
            "\(value.kindName) has no property '\(name)'", at: location,
            help: NameSuggestion.nearest(to: name, among: known).map { "did you mean '\($0)'?" }, sources: sources)
    }

    /// The parts a date has as properties.
    static let dateParts = ["year", "month", "day", "weekday", "hour", "minute", "second"]

    /// `year`, `month`, `day`, `weekday` (1 is Sunday), `hour`, `minute` or `second` of a date, in the system's time zone.
    static func datePart(_ name: String, of value: IntentValue) -> IntentValue? {
        guard case .date(let date) = value else { return nil }
        let parts = Calendar.current.dateComponents([.year, .month, .day, .weekday, .hour, .minute, .second], from: date)
        switch name {
        case "year": return parts.year.map(IntentValue.int)
        case "month": return parts.month.map(IntentValue.int)
        case "day": return parts.day.map(IntentValue.int)
        case "weekday": return parts.weekday.map(IntentValue.int)
        case "hour": return parts.hour.map(IntentValue.int)
        case "minute": return parts.minute.map(IntentValue.int)
        case "second": return parts.second.map(IntentValue.int)
        default: return nil
        }
    }

    private func element(of value: IntentValue, at position: IntentValue, location: SourceLocation) throws -> IntentValue {
        switch (value, position) {
        case (.dictionary(let entries), .string(let key)):
            guard let found = entries[key] else {
                throw WorkflowRunError(
                    "the dictionary has no key '\(key)'", at: location,
                    help: NameSuggestion.nearest(to: key, among: Array(entries.keys)).map { "did you mean '\($0)'?" }, sources: sources)
            }
            return found
        case (_, .int(let index)):
            let elements = value.elements
            let resolved = index < 0 ? elements.count + index : index
            guard elements.indices.contains(resolved) else {
                throw mismatch("index \(index) is outside the list of \(elements.count) item\(elements.count == 1 ? "" : "s")", at: location)
            }
            return elements[resolved]
        default:
            throw mismatch("cannot index \(value.kindName) with \(position.kindName)", at: location)
        }
    }

    private func apply(_ op: ExpressionNode.BinaryOperator, _ left: IntentValue, _ right: IntentValue, at location: SourceLocation) throws
        -> IntentValue
    {
        switch op {
        case .equal: return .bool(ValueComparison.equal(left, right))
        case .notEqual: return .bool(!ValueComparison.equal(left, right))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = ValueComparison.order(left, right) else {
                throw mismatch("cannot compare \(left.kindName) with \(right.kindName)", at: location)
            }
            switch op {
            case .less: return .bool(order == .orderedAscending)
            case .lessOrEqual: return .bool(order != .orderedDescending)
            case .greater: return .bool(order == .orderedDescending)
            default: return .bool(order != .orderedAscending)
            }
        case .add:
            switch (left, right) {
            case (.list(let first), .list(let second)): return .list(first + second)
            case (.string, _), (_, .string): return .string(left.displayText + right.displayText)
            default: break
            }
        default: break
        }
        if case .int(let a) = left, case .int(let b) = right {
            switch op {
            case .add:
                let (sum, overflow) = a.addingReportingOverflow(b)
                if !overflow { return .int(sum) }
            case .subtract:
                let (difference, overflow) = a.subtractingReportingOverflow(b)
                if !overflow { return .int(difference) }
            case .multiply:
                let (product, overflow) = a.multipliedReportingOverflow(by: b)
                if !overflow { return .int(product) }
            case .remainder:
                guard b != 0 else { throw mismatch("division by zero", at: location) }
                if b != -1 { return .int(a % b) }
            case .divide:
                guard b != 0 else { throw mismatch("division by zero", at: location) }
                if b != -1, a % b == 0 { return .int(a / b) }
            default: break
            }
        }
        guard let a = Self.number(left), let b = Self.number(right) else {
            let culprit = Self.number(left) == nil ? left : right
            throw mismatch("'\(op.rawValue)' needs numbers, not \(culprit.kindName)", at: location)
        }
        let operation: MathFunctions.Operation
        switch op {
        case .add: operation = .add
        case .subtract: operation = .subtract
        case .multiply: operation = .multiply
        case .divide: operation = .divide
        default: operation = .modulo
        }
        do {
            return .double(try MathFunctions.calculate(a, operation, b))
        } catch ValueFunctionError.divisionByZero {
            throw mismatch("division by zero", at: location)
        } catch {
            throw mismatch("\(error)", at: location)
        }
    }

    private static func number(_ value: IntentValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    private func call(_ name: String, _ argumentNodes: [ExpressionNode], at location: SourceLocation, in scope: RunScope) throws
        -> IntentValue
    {
        guard let function = ExpressionFunction.table[name], function.arity.contains(argumentNodes.count) else {
            throw mismatch("cannot call '\(name)' with \(argumentNodes.count) argument\(argumentNodes.count == 1 ? "" : "s")", at: location)
        }
        var arguments: [IntentValue] = []
        arguments.reserveCapacity(argumentNodes.count)
        for (position, node) in argumentNodes.enumerated() {
            let value = try evaluate(node, in: scope)
            arguments.append(try convert(value, to: function.argument(at: position), of: function, at: node.location))
        }
        do {
            return try function.body(arguments, scope.clock.now())
        } catch let error as WorkflowRunError {
            throw error
        } catch {
            throw mismatch("\(name): \(error)", at: location)
        }
    }

    private func convert(_ value: IntentValue, to argument: ExpressionFunction.Argument, of function: ExpressionFunction, at location: SourceLocation)
        throws -> IntentValue
    {
        switch (argument, value) {
        case (.any, _), (.text, .string), (.number, .int), (.number, .double), (.list, .list), (.date, .date):
            return value
        case (.text, .list), (.text, .dictionary), (.text, .null):
            break
        case (.text, _):
            return .string(value.displayText)
        case (.number, .string(let text)):
            if let number = Int(text) { return .int(number) }
            if let number = Double(text) { return .double(number) }
        case (.date, .string(let text)):
            if let date = DateText.parse(text) { return .date(date) }
        default:
            break
        }
        throw mismatch("\(function.signature) needs \(argument.rawValue), not \(value.kindName)", at: location)
    }
}
