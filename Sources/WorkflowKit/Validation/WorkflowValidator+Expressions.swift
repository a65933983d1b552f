import IntentKit

/// The static types of expressions with operators, literals and function calls: every unknown
/// name or function, wrong argument count or type, and operator applied to the wrong kind of
/// value is reported at its column inside the `${…}`.
extension ValidationPass {
    /// The type of an expression node, or `nil` after reporting an error in it.
    mutating func type(of node: ExpressionNode) -> IntentValueType? {
        if let path = node.path { return type(of: path) }
        switch node.kind {
        case .literal(let value):
            return Self.type(of: value)
        case .list(let elements):
            var types: [IntentValueType] = []
            for element in elements {
                guard let type = type(of: element) else { return nil }
                types.append(type)
            }
            return .list(Set(types).count == 1 ? types[0] : .any)
        case .dictionary(_, let values):
            var types: [IntentValueType] = []
            for value in values {
                guard let type = type(of: value) else { return nil }
                types.append(type)
            }
            return .dictionary(Set(types).count == 1 ? types[0] : .any)
        case .variable:
            return .any
        case .member(let base, let name, let nullSafe):
            guard let baseType = type(of: base) else { return nil }
            guard let memberType = memberType(name, of: baseType, at: node.location) else { return nil }
            return nullSafe && baseType.isOptional ? .optional(memberType.nonOptional) : memberType
        case .index(let base, let index):
            guard let baseType = type(of: base), let indexType = type(of: index) else { return nil }
            switch (baseType.nonOptional, indexType.nonOptional) {
            case (.any, _), (_, .any): return .any
            case (.list(let element), .int): return element
            case (.dictionary(let value), .string): return value
            default:
                report("cannot index \(baseType) with \(indexType)", at: index.location)
                return nil
            }
        case .unary(.negate, let operand):
            guard let type = type(of: operand) else { return nil }
            guard Self.isNumber(type) else {
                report("'-' needs a number, not \(type)", at: node.location)
                return nil
            }
            return type.nonOptional
        case .unary(.not, let operand):
            guard requireBool(operand, for: "'!'") else { return nil }
            return .bool
        case .unary(.condition, let operand):
            guard requireBool(operand, for: "a condition") else { return nil }
            return .bool
        case .binary(let op, let left, let right):
            return type(of: op, left, right, at: node.location)
        case .conditional(let condition, let then, let otherwise):
            let holds = requireBool(condition, for: "'?'")
            let first = type(of: then)
            let second = type(of: otherwise)
            guard holds, let first, let second else { return nil }
            return first == second ? first : .any
        case .call(let name, let arguments):
            return type(ofCall: name, arguments, at: node.location)
        }
    }

    private static func type(of value: IntentValue) -> IntentValueType {
        switch value {
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .string: .string
        case .date: .date
        default: .any
        }
    }

    private static func isNumber(_ type: IntentValueType) -> Bool {
        switch type.nonOptional {
        case .int, .double, .any: true
        default: false
        }
    }

    private mutating func requireBool(_ node: ExpressionNode, for what: String) -> Bool {
        guard let type = type(of: node) else { return false }
        switch type.nonOptional {
        case .bool, .any: return true
        default:
            report("\(what) needs true or false, not \(type)", at: node.location, help: "compare it, as in 'count > 0' or 'name != \"\"'")
            return false
        }
    }

    private mutating func type(of op: ExpressionNode.BinaryOperator, _ left: ExpressionNode, _ right: ExpressionNode, at location: SourceLocation)
        -> IntentValueType?
    {
        switch op {
        case .and, .or:
            let first = requireBool(left, for: "'\(op.rawValue)'")
            let second = requireBool(right, for: "'\(op.rawValue)'")
            return first && second ? .bool : nil
        case .coalesce:
            let first = type(of: left)
            let second = type(of: right)
            guard let first, let second else { return nil }
            return first.nonOptional == second.nonOptional ? second : .any
        default:
            break
        }
        let first = type(of: left)
        let second = type(of: right)
        guard let first, let second else { return nil }
        let (a, b) = (first.nonOptional, second.nonOptional)
        switch op {
        case .equal, .notEqual:
            return .bool
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            for type in [a, b] {
                switch type {
                case .list, .dictionary, .bool, .entity:
                    report("'\(op.rawValue)' cannot order \(type)", at: location)
                    return nil
                default: continue
                }
            }
            return .bool
        case .add where a == .string || b == .string:
            return .string
        case .add where a.elementType != nil && b.elementType != nil:
            return a == b ? a : .list(.any)
        default:
            break
        }
        guard Self.isNumber(a), Self.isNumber(b) else {
            let culprit = Self.isNumber(a) ? b : a
            report(
                "'\(op.rawValue)' needs numbers, not \(culprit)", at: location,
                help: op == .add ? "'+' also joins text and lists" : nil)
            return nil
        }
        if a == .any || b == .any { return .any }
        if op != .divide, a == .int, b == .int { return .int }
        return .double
    }

    /// The type of a property of a value of `type`, or `nil` after reporting that it has none
    /// of that name; a property of an entity is any type here (a path checks it exactly).
    mutating func memberType(_ name: String, of type: IntentValueType, at location: SourceLocation) -> IntentValueType? {
        switch (type.nonOptional, name) {
        case (.any, _), (.entity, _): return .any
        case (.dictionary(let value), _): return value
        case (.list, "count"), (.string, "count"): return .int
        case (.list(let element), "first"), (.list(let element), "last"): return element
        case (.date, let part) where ValueEvaluator.dateParts.contains(part): return .int
        case (.enumeration, "rawValue"), (.enumeration, "title"): return .string
        case (.file, let property) where IntentFile.properties.contains(where: { $0.key == property }):
            return IntentFile.properties.first { $0.key == property }?.value
        default:
            let known: [String] =
                switch type.nonOptional {
                case .date: ValueEvaluator.dateParts
                case .list: ["count", "first", "last"]
                case .string: ["count"]
                case .file: IntentFile.properties.map(\.key)
                default: []
                }
            report("\(type) has no property '\(name)'", at: location, help: Self.didYouMean(name, known))
            return nil
        }
    }

    private mutating func type(ofCall name: String, _ arguments: [ExpressionNode], at location: SourceLocation) -> IntentValueType? {
        var types: [IntentValueType] = []
        var failed = false
        for argument in arguments {
            if let type = type(of: argument) { types.append(type) } else { failed = true }
        }
        guard let function = ExpressionFunction.table[name] else {
            report(
                "unknown function '\(name)'", at: location,
                help: Self.didYouMean(name, Array(ExpressionFunction.table.keys)) ?? "see the list of functions in the Expressions article")
            return nil
        }
        guard function.arity.contains(arguments.count) else {
            let expected =
                function.arity.upperBound == Int.max
                ? "at least \(function.arity.lowerBound)"
                : function.arity.count == 1 ? "\(function.arity.lowerBound)" : "\(function.arity.lowerBound) to \(function.arity.upperBound)"
            report(
                "'\(name)' takes \(expected) argument\(function.arity.upperBound == 1 ? "" : "s"), got \(arguments.count)", at: location,
                help: "write \(function.signature)")
            return nil
        }
        guard !failed else { return nil }
        for (position, type) in types.enumerated() {
            let kind = function.argument(at: position)
            guard kind.accepts(type) else {
                report(
                    "argument \(position + 1) of '\(name)' must be \(kind.rawValue), not \(type)", at: arguments[position].location,
                    help: "write \(function.signature)")
                return nil
            }
        }
        for (position, check) in function.literalChecks.sorted(by: { $0.key < $1.key }) where position < arguments.count {
            if case .literal(.string(let text)) = arguments[position].kind, let problem = check(text) {
                report(problem, at: arguments[position].location, help: "write \(function.signature)")
            }
        }
        return function.result(types)
    }
}
