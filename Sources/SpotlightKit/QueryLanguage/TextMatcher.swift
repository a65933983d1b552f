import Foundation
import Synchronization

/// Case and diacritic folding shared by the query language and suggestions.
enum TextFolding {
    private static let cache = Mutex<[Character: String]>([:])

    /// Letters whose base letter is not reachable by canonical decomposition.
    private static let specialBases: [Character: String] = [
        "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ħ": "h", "Ħ": "H",
        "ŧ": "t", "Ŧ": "T", "ı": "i"
    ]

    /// Removes the diacritics of one character.
    static func stripDiacritics(_ character: Character) -> String {
        if character.isASCII { return String(character) }
        if let cached = cache.withLock({ $0[character] }) { return cached }
        let folded: String
        if let special = specialBases[character] {
            folded = special
        } else {
            let decomposed = String(character).decomposedStringWithCanonicalMapping
            var scalars = String.UnicodeScalarView()
            for scalar in decomposed.unicodeScalars {
                switch scalar.properties.generalCategory {
                case .nonspacingMark, .spacingMark, .enclosingMark: continue
                default: scalars.append(scalar)
                }
            }
            folded = String(scalars)
        }
        cache.withLock { table in
            if table.count > 4096 { table.removeAll(keepingCapacity: true) }
            table[character] = folded
        }
        return folded
    }

    private enum AloneNormalization {
        case independent([Unicode.Scalar])
        case dependsOnNeighbours
    }

    private static let aloneCache = Mutex<[UInt32: AloneNormalization]>([:])

    /// The text normalized one scalar at a time (NFD when `decomposed`, NFC otherwise),
    /// or `nil` when a scalar may combine or reorder with its neighbours.
    static func normalizedScalarByScalar(_ text: Substring, decomposed: Bool) -> [Unicode.Scalar]? {
        var result: [Unicode.Scalar] = []
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                result.append(scalar)
            } else if let normalized = normalizedAlone(scalar, decomposed: decomposed) {
                result.append(contentsOf: normalized)
            } else {
                return nil
            }
        }
        return result
    }

    /// One scalar normalized on its own, or `nil` when normalizing it next to others could differ.
    ///
    /// Normalization only reorders characters of non-zero combining class and
    /// only composes a character with a following combining mark or conjoining
    /// jamo; text without those normalizes character by character.
    static func normalizedAlone(_ scalar: Unicode.Scalar, decomposed: Bool) -> [Unicode.Scalar]? {
        let key = scalar.value << 1 | (decomposed ? 1 : 0)
        if let cached = aloneCache.withLock({ $0[key] }) {
            if case .independent(let scalars) = cached { return scalars }
            return nil
        }
        let properties = scalar.properties
        let value = scalar.value
        let isJamo = (0x1100...0x11FF).contains(value) || (0xA960...0xA97F).contains(value) || (0xD7B0...0xD7FF).contains(value)
        let entry: AloneNormalization
        if properties.canonicalCombiningClass != .notReordered || isMark(properties.generalCategory) || isJamo {
            entry = .dependsOnNeighbours
        } else {
            let text = String(Character(scalar))
            let normalized = decomposed ? text.decomposedStringWithCanonicalMapping : text.precomposedStringWithCanonicalMapping
            entry = .independent(Array(normalized.unicodeScalars))
        }
        aloneCache.withLock { table in
            if table.count > 8192 { table.removeAll(keepingCapacity: true) }
            table[key] = entry
        }
        if case .independent(let scalars) = entry { return scalars }
        return nil
    }

    static func isMark(_ category: Unicode.GeneralCategory) -> Bool {
        category == .nonspacingMark || category == .spacingMark || category == .enclosingMark
    }

    static func isWord(_ category: Unicode.GeneralCategory) -> Bool {
        switch category {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    private static let specialScalarBases: [Unicode.Scalar: Unicode.Scalar] = {
        var table: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (character, base) in specialBases {
            if let from = character.unicodeScalars.first, let to = base.unicodeScalars.first { table[from] = to }
        }
        return table
    }()

    static func specialBase(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        scalar.isASCII ? nil : specialScalarBases[scalar]
    }

    /// The scalar, or its lowercase mapping when folding case.
    static func lowercased(_ scalar: Unicode.Scalar, _ fold: Bool) -> [Unicode.Scalar] {
        guard fold else { return [scalar] }
        if scalar.isASCII {
            let value = scalar.value
            return [value >= 65 && value <= 90 ? Unicode.Scalar(value + 32)! : scalar]
        }
        return Array(scalar.properties.lowercaseMapping.unicodeScalars)
    }

    /// Folds a whole string: lowercases and removes diacritics.
    static func fold(_ text: String, caseInsensitive: Bool = true, diacriticInsensitive: Bool = true) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            var piece = diacriticInsensitive ? stripDiacritics(character) : String(character)
            if caseInsensitive { piece = piece.lowercased() }
            result += piece
        }
        return result
    }
}

/// A value prepared for matching: folded elements (characters, or bytes for
/// ASCII text) with word boundaries taken from the original text.
struct FoldedText<Element: Equatable> {
    var elements: [Element] = []
    var isWordCharacter: [Bool] = []
    var startsWord: [Bool] = []

    var count: Int { elements.count }

    /// Whether a word boundary lies before position `index` (0...count).
    func isBoundary(_ index: Int) -> Bool {
        if index == 0 || index == elements.count { return true }
        return !isWordCharacter[index - 1] || !isWordCharacter[index] || startsWord[index]
    }
}

extension FoldedText where Element == Unicode.Scalar {
    /// Prepares any text: normalized (NFD without marks when diacritic-insensitive,
    /// NFC otherwise), lowercased when case-insensitive, scalar by scalar.
    ///
    /// Text whose characters normalize independently (see
    /// ``TextFolding/normalizedAlone(_:decomposed:)``) is normalized scalar by
    /// scalar, with the same result as normalizing it whole; `scalarByScalar: false`
    /// always normalizes the whole text.
    init(_ text: Substring, modifiers: MatchModifiers, camelCaseBoundaries: Bool, scalarByScalar: Bool = true) {
        let caseInsensitive = modifiers.contains(.caseInsensitive)
        let diacriticInsensitive = modifiers.contains(.diacriticInsensitive)
        let normalizedScalars: [Unicode.Scalar]
        if scalarByScalar, let scalars = TextFolding.normalizedScalarByScalar(text, decomposed: diacriticInsensitive) {
            normalizedScalars = scalars
        } else {
            let normalized = diacriticInsensitive ? text.decomposedStringWithCanonicalMapping : text.precomposedStringWithCanonicalMapping
            normalizedScalars = Array(normalized.unicodeScalars)
        }
        elements.reserveCapacity(normalizedScalars.count)
        isWordCharacter.reserveCapacity(normalizedScalars.count)
        startsWord.reserveCapacity(normalizedScalars.count)
        var previousIsWord = false
        var previousIsLower = false
        for scalar in normalizedScalars {
            if scalar.isASCII {
                let value = scalar.value
                let isLower = value >= 97 && value <= 122
                let isUpper = value >= 65 && value <= 90
                let isWord = isLower || isUpper || (value >= 48 && value <= 57)
                elements.append(caseInsensitive && isUpper ? Unicode.Scalar(value + 32)! : scalar)
                isWordCharacter.append(isWord)
                startsWord.append(isWord && (!previousIsWord || (camelCaseBoundaries && previousIsLower && isUpper)))
                previousIsWord = isWord
                previousIsLower = isLower
                continue
            }
            let properties = scalar.properties
            if TextFolding.isMark(properties.generalCategory) {
                if diacriticInsensitive { continue }
                // A mark belongs to the character before it.
                for folded in TextFolding.lowercased(scalar, caseInsensitive) {
                    elements.append(folded)
                    isWordCharacter.append(previousIsWord)
                    startsWord.append(false)
                }
                continue
            }
            let base = diacriticInsensitive ? (TextFolding.specialBase(scalar) ?? scalar) : scalar
            let isWord = TextFolding.isWord(properties.generalCategory)
            let isUpper = properties.isUppercase
            var first = true
            for folded in TextFolding.lowercased(base, caseInsensitive) {
                elements.append(folded)
                isWordCharacter.append(isWord)
                startsWord.append(first && isWord && (!previousIsWord || (camelCaseBoundaries && previousIsLower && isUpper)))
                first = false
            }
            previousIsWord = isWord
            previousIsLower = properties.isLowercase
        }
    }
}

extension FoldedText where Element == UInt8 {
    /// Prepares ASCII bytes; diacritic folding is the identity on ASCII.
    init(ascii bytes: UnsafeBufferPointer<UInt8>, caseInsensitive: Bool, camelCaseBoundaries: Bool) {
        elements.reserveCapacity(bytes.count)
        isWordCharacter.reserveCapacity(bytes.count)
        startsWord.reserveCapacity(bytes.count)
        var previousIsWord = false
        var previousIsLower = false
        for byte in bytes {
            let isLower = byte >= 97 && byte <= 122
            let isUpper = byte >= 65 && byte <= 90
            let isWord = isLower || isUpper || (byte >= 48 && byte <= 57)
            elements.append(caseInsensitive && isUpper ? byte + 32 : byte)
            isWordCharacter.append(isWord)
            startsWord.append(isWord && (!previousIsWord || (camelCaseBoundaries && previousIsLower && isUpper)))
            previousIsWord = isWord
            previousIsLower = isLower
        }
    }
}

/// One element of a prepared pattern.
enum PatternUnit<Element: Equatable & Sendable>: Equatable, Sendable {
    case literal(Element)
    case wildcard
}

/// A pattern prepared for matching: folded literals and wildcards, whole and split into tokens.
struct PreparedUnits<Element: Equatable & Sendable>: Sendable {
    var units: [PatternUnit<Element>]
    var tokens: [[PatternUnit<Element>]]

    init(units: [PatternUnit<Element>], isWord: (Element) -> Bool) {
        self.units = units
        var tokens: [[PatternUnit<Element>]] = []
        var current: [PatternUnit<Element>] = []
        for unit in units {
            switch unit {
            case .wildcard:
                current.append(unit)
            case .literal(let element):
                if isWord(element) {
                    current.append(unit)
                } else if !current.isEmpty {
                    tokens.append(current)
                    current = []
                }
            }
        }
        if !current.isEmpty { tokens.append(current) }
        self.tokens = tokens.filter { token in token.contains { $0 != .wildcard } }
    }
}

/// A pattern prepared for matching, as scalars and, when it is ASCII, as bytes.
struct CompiledPattern: Sendable {
    var scalars: PreparedUnits<Unicode.Scalar>
    var ascii: PreparedUnits<UInt8>?
    var modifiers: MatchModifiers
    var isPresenceTest: Bool

    init(_ pattern: StringPattern) {
        let modifiers = pattern.modifiers
        self.modifiers = modifiers
        // Literal runs are folded exactly like values, so both sides compare scalar by scalar.
        var units: [PatternUnit<Unicode.Scalar>] = []
        var run = ""
        func flush() {
            guard !run.isEmpty else { return }
            let folded = FoldedText<Unicode.Scalar>(Substring(run), modifiers: modifiers, camelCaseBoundaries: false)
            units.append(contentsOf: folded.elements.map { .literal($0) })
            run = ""
        }
        for element in pattern.elements {
            switch element {
            case .wildcard:
                flush()
                if units.last != .wildcard { units.append(.wildcard) }
            case .literal(let character):
                run.append(character)
            }
        }
        flush()
        scalars = PreparedUnits(units: units, isWord: { TextFolding.isWord($0.properties.generalCategory) })
        isPresenceTest = !units.isEmpty && units.allSatisfy { $0 == .wildcard }
        let asciiUnits: [PatternUnit<UInt8>]? = {
            var result: [PatternUnit<UInt8>] = []
            for unit in units {
                switch unit {
                case .wildcard: result.append(.wildcard)
                case .literal(let scalar):
                    guard scalar.isASCII else { return nil }
                    result.append(.literal(UInt8(scalar.value)))
                }
            }
            return result
        }()
        ascii = asciiUnits.map { PreparedUnits(units: $0, isWord: { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }) }
    }
}

/// Evaluates string comparisons of the query language.
///
/// - Without `w` or `t`, the pattern must match the whole value.
/// - With `w`, the pattern must match a run of the value that starts and ends
///   at word boundaries; a lower-case letter followed by an upper-case one is
///   a boundary, so `"bridges"w` matches `NaturalBridges` and `"bridge*"w`
///   matches `NaturalBridges`, but `"bridge"w` does not.
/// - With `t`, the pattern is split into tokens; every token must match a
///   whole token of the value, in any order (with `w`, case transitions also
///   split the value's tokens).
/// - `*` matches any run of characters, including none.
/// - Multi-valued attributes are stored joined by U+001F; a value matches when any element does.
///
/// ASCII values are matched byte by byte; other values scalar by scalar after
/// normalization and folding, with identical results on ASCII text.
enum TextMatcher {
    static let valueSeparator: Character = "\u{1F}"

    static func matches(_ value: String, _ pattern: CompiledPattern) -> Bool {
        if pattern.isPresenceTest { return !value.isEmpty }
        if let asciiPattern = pattern.ascii {
            var utf8 = value
            let result: Bool? = utf8.withUTF8 { bytes -> Bool? in
                var isASCII = true
                for byte in bytes where byte >= 0x80 {
                    isASCII = false
                    break
                }
                guard isASCII else { return nil }
                var start = 0
                for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x1F {
                    if index > start || bytes.count == 0 {
                        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                        let text = FoldedText<UInt8>(
                            ascii: slice,
                            caseInsensitive: pattern.modifiers.contains(.caseInsensitive),
                            camelCaseBoundaries: pattern.modifiers.contains(.wordBased))
                        if matchesSingle(text, asciiPattern, pattern.modifiers) { return true }
                    }
                    start = index + 1
                }
                return false
            }
            if let result { return result }
        }
        let camel = pattern.modifiers.contains(.wordBased)
        if value.contains(valueSeparator) {
            return value.split(separator: valueSeparator, omittingEmptySubsequences: true).contains {
                matchesSingle(
                    FoldedText<Unicode.Scalar>($0, modifiers: pattern.modifiers, camelCaseBoundaries: camel),
                    pattern.scalars, pattern.modifiers)
            }
        }
        let text = FoldedText<Unicode.Scalar>(Substring(value), modifiers: pattern.modifiers, camelCaseBoundaries: camel)
        return matchesSingle(text, pattern.scalars, pattern.modifiers)
    }

    private static func matchesSingle<E>(_ text: FoldedText<E>, _ pattern: PreparedUnits<E>, _ modifiers: MatchModifiers) -> Bool {
        if modifiers.contains(.tokenized) {
            if pattern.tokens.isEmpty { return pattern.units.isEmpty ? text.count == 0 : true }
            return pattern.tokens.allSatisfy { token in
                wordMatch(token, in: text, tokensOnly: true)
            }
        }
        if modifiers.contains(.wordBased) {
            return wordMatch(pattern.units, in: text, tokensOnly: false)
        }
        if !pattern.units.contains(.wildcard) {
            return pattern.units.count == text.count && literalMatch(pattern.units, in: text, at: 0)
        }
        return ends(of: pattern.units, in: text, from: 0).contains(text.count)
    }

    private static func literalMatch<E>(_ units: [PatternUnit<E>], in text: FoldedText<E>, at start: Int) -> Bool {
        guard start + units.count <= text.count else { return false }
        for (offset, unit) in units.enumerated() {
            guard case .literal(let element) = unit, text.elements[start + offset] == element else { return false }
        }
        return true
    }

    /// Tries every boundary as a start; succeeds when the pattern ends on a boundary.
    private static func wordMatch<E>(_ units: [PatternUnit<E>], in text: FoldedText<E>, tokensOnly: Bool) -> Bool {
        if units.isEmpty { return text.count == 0 }
        let firstLiteral: E? = {
            if case .literal(let element) = units[0] { return element }
            return nil
        }()
        let hasWildcard = units.contains(.wildcard)
        for start in 0...text.count {
            if let firstLiteral {
                guard start < text.count, text.elements[start] == firstLiteral else { continue }
            }
            guard text.isBoundary(start) else { continue }
            if tokensOnly, start < text.count, !text.isWordCharacter[start] { continue }
            if !hasWildcard {
                let end = start + units.count
                if literalMatch(units, in: text, at: start) && text.isBoundary(end) {
                    if tokensOnly && (start..<end).contains(where: { !text.isWordCharacter[$0] }) { continue }
                    return true
                }
                continue
            }
            for end in ends(of: units, in: text, from: start) where text.isBoundary(end) {
                // A token match may not span a separator.
                if tokensOnly && (start..<end).contains(where: { !text.isWordCharacter[$0] }) { continue }
                return true
            }
        }
        return false
    }

    /// All positions where a match of `units` starting at `start` can end.
    private static func ends<E>(of units: [PatternUnit<E>], in text: FoldedText<E>, from start: Int) -> [Int] {
        var states: [Int] = [start]
        for unit in units {
            switch unit {
            case .wildcard:
                guard let lowest = states.min() else { return [] }
                states = Array(lowest...text.count)
            case .literal(let element):
                var next: [Int] = []
                next.reserveCapacity(states.count)
                for position in states where position < text.count && text.elements[position] == element {
                    next.append(position + 1)
                }
                states = next
            }
            if states.isEmpty { return [] }
        }
        return states
    }
}

/// Compiled patterns keyed by their encoded text and modifiers, shared by all connections.
enum PatternCache {
    private struct Key: Hashable {
        var text: String
        var flags: Int
    }

    private static let cache = Mutex<[Key: CompiledPattern]>([:])

    static func pattern(encoded: String, flags: Int) -> CompiledPattern {
        let key = Key(text: encoded, flags: flags)
        if let pattern = cache.withLock({ $0[key] }) { return pattern }
        let pattern = CompiledPattern(StringPattern.decode(encoded, modifiers: MatchModifiers(rawValue: flags)))
        cache.withLock { table in
            if table.count > 512 { table.removeAll(keepingCapacity: true) }
            table[key] = pattern
        }
        return pattern
    }
}
