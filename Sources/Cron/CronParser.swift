/// Turns cron text into a ``CronExpression``, reporting the first problem with
/// its field and column.
enum CronParser {
    /// Macro names (lower-case) and the five fields they stand for.
    static let macros: [(name: String, fields: String)] = [
        ("@yearly", "0 0 1 1 *"),
        ("@annually", "0 0 1 1 *"),
        ("@monthly", "0 0 1 * *"),
        ("@weekly", "0 0 * * 0"),
        ("@daily", "0 0 * * *"),
        ("@midnight", "0 0 * * *"),
        ("@hourly", "0 * * * *")
    ]

    static func parse(_ text: String) throws(CronError) -> CronExpression {
        let characters = Array(text)
        let tokens = fieldTokens(in: characters)
        guard let firstToken = tokens.first, let lastToken = tokens.last else {
            throw CronError(fieldIndex: nil, field: nil, column: 1, reason: .emptyExpression)
        }
        let source = String(characters[firstToken.lowerBound..<lastToken.upperBound])

        if characters[firstToken.lowerBound] == "@" {
            let macroText = String(characters[firstToken])
            if tokens.count > 1 {
                throw CronError(
                    fieldIndex: nil, field: nil, column: tokens[1].lowerBound + 1,
                    reason: .textAfterMacro(macroText))
            }
            if macroText.lowercased() == "@reboot" {
                let never = Array("0 0 31 2 *")
                let parsed = try build(source: source, characters: never, tokens: fieldTokens(in: never))
                return CronExpression(
                    source: source, schedule: parsed.schedule, fieldItems: parsed.fieldItems,
                    hasSeconds: false, runsAtStart: true)
            }
            guard let macro = macros.first(where: { $0.name == macroText.lowercased() }) else {
                let suggestion = NearestName.find(for: macroText.lowercased(), among: macros.map(\.name) + ["@reboot"])
                throw CronError(
                    fieldIndex: nil, field: nil, column: firstToken.lowerBound + 1,
                    reason: .unknownMacro(macroText, suggestion: suggestion))
            }
            let expanded = Array(macro.fields)
            return try build(source: source, characters: expanded, tokens: fieldTokens(in: expanded))
        }

        guard tokens.count == 5 || tokens.count == 6 else {
            let column = tokens.count < 5 ? lastToken.upperBound + 2 : tokens[6].lowerBound + 1
            throw CronError(
                fieldIndex: nil, field: nil, column: column,
                reason: .wrongFieldCount(found: tokens.count))
        }
        return try build(source: source, characters: characters, tokens: tokens)
    }

    /// Ranges of the whitespace-separated fields.
    private static func fieldTokens(in characters: [Character]) -> [Range<Int>] {
        var tokens: [Range<Int>] = []
        var start: Int?
        for index in 0...characters.count {
            let isSeparator = index == characters.count || characters[index].isWhitespace
            if isSeparator {
                if let tokenStart = start {
                    tokens.append(tokenStart..<index)
                    start = nil
                }
            } else if start == nil {
                start = index
            }
        }
        return tokens
    }

    private static func build(
        source: String, characters: [Character], tokens: [Range<Int>]
    ) throws(CronError) -> CronExpression {
        let hasSeconds = tokens.count == 6
        let fields: [CronField] = hasSeconds ? CronField.allCases : Array(CronField.allCases.dropFirst())
        var itemsByField: [[CronFieldItem]] = Array(repeating: [.value(0)], count: CronField.allCases.count)
        var unrestricted: [Bool] = Array(repeating: false, count: CronField.allCases.count)
        var beginsWithStar: [Bool] = Array(repeating: false, count: CronField.allCases.count)
        for (position, field) in fields.enumerated() {
            let token = tokens[position]
            let parser = CronFieldParser(field: field, fieldIndex: position + 1, characters: characters)
            itemsByField[field.rawValue] = try parser.parseField(in: token)
            let text = String(characters[token])
            unrestricted[field.rawValue] = text == "*" || text == "?"
            beginsWithStar[field.rawValue] = text.hasPrefix("*") || text == "?"
        }

        func plainSet(_ field: CronField) -> CronBitSet {
            CronBitSet(itemsByField[field.rawValue].flatMap { $0.plainValues(in: field) })
        }

        var days = CronDayRule()
        days.dayOfMonthIsRestricted = !unrestricted[CronField.dayOfMonth.rawValue]
        days.dayOfWeekIsRestricted = !unrestricted[CronField.dayOfWeek.rawValue]
        days.dayOfMonthBeginsWithStar = beginsWithStar[CronField.dayOfMonth.rawValue]
        days.dayOfWeekBeginsWithStar = beginsWithStar[CronField.dayOfWeek.rawValue]
        for item in itemsByField[CronField.dayOfMonth.rawValue] {
            switch item {
            case .lastDayOfMonth(let offset): days.lastDayOffsets |= 1 << UInt64(offset)
            case .nearestWeekday(let day): days.nearestWeekdayDays |= 1 << UInt64(day)
            case .lastWeekdayOfMonth: days.includesLastWeekdayOfMonth = true
            default:
                for day in item.plainValues(in: .dayOfMonth) { days.daysOfMonth |= 1 << UInt64(day) }
            }
        }
        for item in itemsByField[CronField.dayOfWeek.rawValue] {
            switch item {
            case .nthWeekday(let weekday, let ordinal):
                days.nthWeekdays |= 1 << UInt64((ordinal - 1) * 7 + weekday % 7)
            case .lastWeekday(let weekday):
                days.lastWeekdays |= 1 << UInt64(weekday % 7)
            default:
                for weekday in item.plainValues(in: .dayOfWeek) { days.weekdays |= 1 << UInt64(weekday % 7) }
            }
        }

        let timeFields: [CronField] = hasSeconds ? [.second, .minute, .hour] : [.minute, .hour]
        let isFixedTime = timeFields.allSatisfy { field in
            itemsByField[field.rawValue].allSatisfy(\.isSingleValue)
        }
        let schedule = CronSchedule(
            seconds: plainSet(.second),
            minutes: plainSet(.minute),
            hours: plainSet(.hour),
            months: plainSet(.month),
            days: days,
            isFixedTime: isFixedTime)
        return CronExpression(
            source: source, schedule: schedule, fieldItems: itemsByField, hasSeconds: hasSeconds)
    }
}

/// Parses the text of one field into its list items.
private struct CronFieldParser {
    let field: CronField
    let fieldIndex: Int
    let characters: [Character]

    private func failure(_ reason: CronErrorReason, at index: Int) -> CronError {
        CronError(fieldIndex: fieldIndex, field: field, column: index + 1, reason: reason)
    }

    func parseField(in token: Range<Int>) throws(CronError) -> [CronFieldItem] {
        if let questionMark = token.first(where: { characters[$0] == "?" }) {
            guard field == .dayOfMonth || field == .dayOfWeek else {
                throw failure(.questionMarkNotAllowed, at: questionMark)
            }
            guard token.count == 1 else { throw failure(.questionMarkNotAlone, at: questionMark) }
            return [.noSpecificValue]
        }
        var items: [CronFieldItem] = []
        var itemStart = token.lowerBound
        for index in token.lowerBound...token.upperBound where index == token.upperBound || characters[index] == "," {
            guard index > itemStart else {
                throw failure(.emptyListItem, at: index == token.upperBound ? index - 1 : index)
            }
            items.append(try parseItem(in: itemStart..<index))
            itemStart = index + 1
        }
        return items
    }

    // MARK: - Items

    private func parseItem(in item: Range<Int>) throws(CronError) -> CronFieldItem {
        var cursor = item.lowerBound
        let end = item.upperBound

        if characters[cursor] == "*" {
            cursor += 1
            guard cursor < end else { return .every }
            guard characters[cursor] == "/" else { throw failure(.unexpectedCharacter(characters[cursor]), at: cursor) }
            let step = try readStep(slashAt: cursor, end: end, cursor: &cursor)
            try expectEnd(cursor, end, afterRangeOrStep: true)
            return .step(start: field.bounds.lowerBound, end: field.bounds.upperBound, step: step, form: .wildcard)
        }

        let atom = readAtom(from: cursor, end: end)
        guard !atom.isEmpty else {
            let character = characters[cursor]
            throw failure("-/#".contains(character) ? .missingValue(before: character) : .unexpectedCharacter(character), at: cursor)
        }
        cursor = atom.upperBound
        let text = String(characters[atom]).uppercased()

        if let special = try parseCalendarRelative(text, atom: atom, end: end) {
            return special
        }

        let low = try resolveValue(text, at: atom.lowerBound)
        guard cursor < end else { return .value(low) }
        switch characters[cursor] {
        case "#":
            guard field == .dayOfWeek else { throw failure(.misplacedNth, at: cursor) }
            let ordinalAtom = readAtom(from: cursor + 1, end: end)
            let ordinalText = String(characters[ordinalAtom])
            guard !ordinalAtom.isEmpty, ordinalText.allSatisfy(\.isASCIIDigit) else {
                throw failure(.missingOrdinal, at: cursor)
            }
            guard let ordinal = Int(ordinalText), (1...5).contains(ordinal) else {
                throw failure(.ordinalOutOfRange(ordinalText), at: ordinalAtom.lowerBound)
            }
            if ordinalAtom.upperBound < end {
                let next = characters[ordinalAtom.upperBound]
                throw failure(
                    next == "-" || next == "/" ? .nthNeedsSingleWeekday : .unexpectedCharacter(next),
                    at: ordinalAtom.upperBound)
            }
            return .nthWeekday(weekday: low, ordinal: ordinal)

        case "-":
            let dash = cursor
            let highAtom = readAtom(from: dash + 1, end: end)
            guard !highAtom.isEmpty else {
                throw failure(.missingRangeEnd(String(characters[item.lowerBound..<dash])), at: dash)
            }
            let highText = String(characters[highAtom]).uppercased()
            if field == .dayOfMonth, highText.count > 1, highText.hasSuffix("W") {
                throw failure(.nearestWeekdayNeedsSingleDay, at: highAtom.lowerBound)
            }
            if field == .dayOfWeek, highText.count > 1, highText.hasSuffix("L") {
                throw failure(.lastNeedsSingleWeekday, at: highAtom.lowerBound)
            }
            var high = try resolveValue(highText, at: highAtom.lowerBound)
            if field == .dayOfWeek && highText == "SUN" && low > 0 {
                high = 7  // FRI-SUN: Sunday closes the week
            }
            if low > high {
                throw failure(
                    .reversedRange(
                        String(characters[item.lowerBound..<highAtom.upperBound]),
                        wrapAround: wrapAroundSuggestion(
                            low: low, high: high,
                            namesWritten: !text.allSatisfy(\.isASCIIDigit) && !highText.allSatisfy(\.isASCIIDigit))),
                    at: item.lowerBound)
            }
            cursor = highAtom.upperBound
            guard cursor < end else { return .range(low, high) }
            if characters[cursor] == "/" {
                let step = try readStep(slashAt: cursor, end: end, cursor: &cursor)
                try expectEnd(cursor, end, afterRangeOrStep: true)
                return .step(start: low, end: high, step: step, form: .range)
            }
            try expectEnd(cursor, end, afterRangeOrStep: true)
            return .range(low, high)

        case "/":
            let step = try readStep(slashAt: cursor, end: end, cursor: &cursor)
            try expectEnd(cursor, end, afterRangeOrStep: true)
            return .step(start: low, end: field.bounds.upperBound, step: step, form: .open)

        default:
            throw failure(.unexpectedCharacter(characters[cursor]), at: cursor)
        }
    }

    /// Handles `L`, `L-n`, `LW`, `nW` and `dL`, or returns `nil` for ordinary atoms.
    private func parseCalendarRelative(
        _ text: String, atom: Range<Int>, end: Int
    ) throws(CronError) -> CronFieldItem? {
        let cursor = atom.upperBound
        let lastIndex = atom.upperBound - 1

        if text == "L" {
            switch field {
            case .dayOfMonth:
                guard cursor < end else { return .lastDayOfMonth(offset: 0) }
                guard characters[cursor] == "-" else {
                    throw failure(.unexpectedCharacter(characters[cursor]), at: cursor)
                }
                let offsetAtom = readAtom(from: cursor + 1, end: end)
                guard !offsetAtom.isEmpty else { throw failure(.missingLastDayOffset, at: cursor) }
                let offsetText = String(characters[offsetAtom])
                guard offsetText.allSatisfy(\.isASCIIDigit) else {
                    throw failure(
                        .notAValue(String(characters[atom.lowerBound..<offsetAtom.upperBound]), field: field),
                        at: atom.lowerBound)
                }
                guard let offset = Int(offsetText), (0...30).contains(offset) else {
                    throw failure(.lastDayOffsetOutOfRange(offsetText), at: offsetAtom.lowerBound)
                }
                try expectEnd(offsetAtom.upperBound, end, afterRangeOrStep: false)
                return .lastDayOfMonth(offset: offset)
            case .dayOfWeek:
                throw failure(.lastNeedsWeekday, at: atom.lowerBound)
            default:
                throw failure(.misplacedLast, at: atom.lowerBound)
            }
        }

        if text.count > 1, text.hasSuffix("W") {
            let prefix = text.dropLast()
            if prefix == "L" || prefix.allSatisfy(\.isASCIIDigit) {
                guard field == .dayOfMonth else { throw failure(.misplacedNearestWeekday, at: lastIndex) }
                if cursor < end {
                    let next = characters[cursor]
                    throw failure(
                        next == "-" || next == "/" ? .nearestWeekdayNeedsSingleDay : .unexpectedCharacter(next),
                        at: cursor)
                }
                if prefix == "L" { return .lastWeekdayOfMonth }
                let day = try resolveValue(String(prefix), at: atom.lowerBound)
                return .nearestWeekday(day)
            }
        }

        if text.count > 1, text.hasSuffix("L") {
            let prefix = String(text.dropLast())
            let isWeekday = prefix.allSatisfy(\.isASCIIDigit) || CronField.dayOfWeek.value(forName: prefix) != nil
            if isWeekday {
                switch field {
                case .dayOfWeek:
                    if cursor < end {
                        let next = characters[cursor]
                        throw failure(
                            next == "-" || next == "/" || next == "#"
                                ? .lastNeedsSingleWeekday : .unexpectedCharacter(next),
                            at: cursor)
                    }
                    return .lastWeekday(try resolveValue(prefix, at: atom.lowerBound))
                case .dayOfMonth:
                    throw failure(.notAValue(String(characters[atom]), field: field), at: atom.lowerBound)
                default:
                    throw failure(.misplacedLast, at: lastIndex)
                }
            }
        }
        return nil
    }

    // MARK: - Pieces

    /// The maximal run of letters and digits starting at `start`.
    private func readAtom(from start: Int, end: Int) -> Range<Int> {
        var index = start
        while index < end, characters[index].isASCIILetterOrDigit {
            index += 1
        }
        return start..<index
    }

    /// A number or a name, checked against the field's bounds.
    private func resolveValue(_ upperText: String, at index: Int) throws(CronError) -> Int {
        if upperText.allSatisfy(\.isASCIIDigit) {
            let trimmed = upperText.drop { $0 == "0" }
            let value = trimmed.count > 9 ? Int.max : Int(trimmed.isEmpty ? "0" : String(trimmed)) ?? Int.max
            guard field.bounds.contains(value) else {
                throw failure(.outOfRange(upperText, bounds: field.bounds), at: index)
            }
            return value
        }
        if let value = field.value(forName: upperText) {
            return value
        }
        let original = String(characters[index..<index + upperText.count])
        for other in [CronField.month, .dayOfWeek] where other != field && other.value(forName: upperText) != nil {
            throw failure(.nameOfOtherField(original, field: other, expected: field), at: index)
        }
        if !field.names.isEmpty, upperText.allSatisfy(\.isASCIILetter) {
            throw failure(
                .unknownName(original, suggestion: NearestName.find(for: upperText, among: field.names)),
                at: index)
        }
        throw failure(.notAValue(original, field: field), at: index)
    }

    /// Reads `/n` and validates the step; leaves `cursor` after the number.
    private func readStep(slashAt slash: Int, end: Int, cursor: inout Int) throws(CronError) -> Int {
        let atom = readAtom(from: slash + 1, end: end)
        guard !atom.isEmpty else { throw failure(.missingStep, at: slash) }
        let text = String(characters[atom])
        guard text.allSatisfy(\.isASCIIDigit) else { throw failure(.stepNotANumber(text), at: atom.lowerBound) }
        let maximum = field.bounds.count
        let trimmed = text.drop { $0 == "0" }
        let step = trimmed.count > 9 ? Int.max : Int(trimmed.isEmpty ? "0" : String(trimmed)) ?? Int.max
        guard step != 0 else { throw failure(.zeroStep, at: atom.lowerBound) }
        guard step <= maximum else { throw failure(.stepTooLarge(text, maximum: maximum), at: atom.lowerBound) }
        cursor = atom.upperBound
        return step
    }

    private func expectEnd(_ cursor: Int, _ end: Int, afterRangeOrStep: Bool) throws(CronError) {
        guard cursor < end else { return }
        let next = characters[cursor]
        if afterRangeOrStep && next == "#" {
            throw failure(field == .dayOfWeek ? .nthNeedsSingleWeekday : .misplacedNth, at: cursor)
        }
        throw failure(.unexpectedCharacter(next), at: cursor)
    }

    /// A list that expresses a reversed range the way the user probably meant it.
    private func wrapAroundSuggestion(low: Int, high: Int, namesWritten: Bool) -> String {
        let minimum = field.bounds.lowerBound
        let maximum = field == .dayOfWeek ? 6 : field.bounds.upperBound
        func render(_ value: Int) -> String {
            namesWritten ? field.name(forValue: value) ?? String(value) : String(value)
        }
        if field == .dayOfWeek && low == 7 {
            return "\(render(0))-\(render(high))"
        }
        let tail = low == maximum ? render(low) : "\(render(low))-\(render(maximum))"
        let head = high == minimum ? render(high) : "\(render(minimum))-\(render(high))"
        return "\(tail),\(head)"
    }
}

/// Picks the closest candidate to a misspelled name.
enum NearestName {
    static func find(for text: String, among candidates: [String]) -> String {
        let upper = text.uppercased()
        if let prefixed = candidates.first(where: { upper.hasPrefix($0.uppercased()) }) {
            return prefixed
        }
        var best = candidates.first ?? ""
        var bestDistance = Int.max
        for candidate in candidates {
            let distance = editDistance(Array(upper), Array(candidate.uppercased()))
            if distance < bestDistance {
                best = candidate
                bestDistance = distance
            }
        }
        return best
    }

    /// Levenshtein distance: insertions, deletions and substitutions each cost one.
    static func editDistance(_ source: [Character], _ target: [Character]) -> Int {
        if source.isEmpty { return target.count }
        if target.isEmpty { return source.count }
        var previous = Array(0...target.count)
        var current = Array(repeating: 0, count: target.count + 1)
        for (row, sourceCharacter) in source.enumerated() {
            current[0] = row + 1
            for (column, targetCharacter) in target.enumerated() {
                let substitution = previous[column] + (sourceCharacter == targetCharacter ? 0 : 1)
                current[column + 1] = min(previous[column + 1] + 1, current[column] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[target.count]
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
    fileprivate var isASCIILetter: Bool { isASCII && isLetter }
    fileprivate var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}
