import Foundation
import IntentKit

/// Functions on lists: items by position, ranges, sorting (by a key path for dictionaries and
/// entities), unique elements, and counts by key.
///
/// ```swift
/// try ListFunctions.item(-1, of: books)                         // the last book
/// try ListFunctions.sort(books, by: "datePublished", descending: true)
/// try ListFunctions.countBy(books, key: "author")
/// // [{key: Delia Owens, count: 4}, {key: Jane Austen, count: 2}]
/// ```
public enum ListFunctions {
    /// The first element.
    ///
    /// - Throws: ``ValueFunctionError/emptyList(argument:function:)``.
    public static func first(_ list: [IntentValue]) throws -> IntentValue {
        guard let first = list.first else { throw ValueFunctionError.emptyList(argument: "list", function: "first element") }
        return first
    }

    /// The last element.
    ///
    /// - Throws: ``ValueFunctionError/emptyList(argument:function:)``.
    public static func last(_ list: [IntentValue]) throws -> IntentValue {
        guard let last = list.last else { throw ValueFunctionError.emptyList(argument: "list", function: "last element") }
        return last
    }

    /// A random element.
    ///
    /// - Throws: ``ValueFunctionError/emptyList(argument:function:)``.
    public static func random(_ list: [IntentValue]) throws -> IntentValue {
        guard let element = list.randomElement() else { throw ValueFunctionError.emptyList(argument: "list", function: "random element") }
        return element
    }

    /// The element at a position from 0; a negative position counts from the end.
    ///
    /// - Throws: ``ValueFunctionError/invalidArgument(argument:reason:)`` for a position outside the list.
    public static func item(_ index: Int, of list: [IntentValue]) throws -> IntentValue {
        guard let position = ValueKeyPath.position(index, count: list.count), position < list.count else {
            throw ValueFunctionError.invalidArgument(argument: "index", reason: "position \(index) is outside the list of \(list.count) element(s)")
        }
        return list[position]
    }

    /// The elements from one position up to, not including, another, as `Array.slice` and
    /// JavaScript's `slice` do; negative positions count from the end, `end` is the end of the
    /// list when `nil`, and positions past the ends are clamped.
    ///
    /// ```swift
    /// ListFunctions.slice([1, 2, 3, 4], from: 1, to: -1)   // [2, 3]
    /// ```
    public static func slice(_ list: [IntentValue], from start: Int, to end: Int? = nil) -> [IntentValue] {
        func clamp(_ index: Int) -> Int { Swift.min(list.count, Swift.max(0, index < 0 ? list.count + index : index)) }
        let lower = clamp(start)
        let upper = clamp(end ?? list.count)
        return lower < upper ? Array(list[lower..<upper]) : []
    }

    /// The value an element is sorted, deduplicated or counted by: the element itself, or the
    /// value at a key path in it.
    static func key(of element: IntentValue, path: ValueKeyPath?) throws -> IntentValue {
        guard let path else { return element }
        return try path.value(in: element)
    }

    /// Sorts values, or dictionaries and entities by the value at a key path. Numbers sort by
    /// value, dates in time, text ignoring case and diacritics; the sort is stable and values
    /// without the key (or `null`) go last.
    ///
    /// - Throws: ``ValueFunctionError/invalidKeyPath(path:reason:)`` for a malformed key path.
    public static func sort(_ list: [IntentValue], by keyPath: String? = nil, descending: Bool = false) throws -> [IntentValue] {
        let path = try keyPath.flatMap { $0.isEmpty ? nil : try ValueKeyPath($0) }
        let keyed = list.enumerated().map { offset, element in (offset, element, (try? key(of: element, path: path)) ?? .null) }
        return keyed.sorted { left, right in
            switch (left.2.isNull, right.2.isNull) {
            case (true, true): return left.0 < right.0
            case (true, false): return false
            case (false, true): return true
            case (false, false): break
            }
            let order = ValueComparison.order(left.2, right.2) ?? ValueComparison.order(.string(left.2.displayText), .string(right.2.displayText))
            switch order {
            case .orderedAscending?: return !descending
            case .orderedDescending?: return descending
            default: return left.0 < right.0
            }
        }.map(\.1)
    }

    /// The elements without repeats, keeping the first of each; compared whole or by the value
    /// at a key path.
    ///
    /// - Throws: ``ValueFunctionError/invalidKeyPath(path:reason:)`` for a malformed key path.
    public static func unique(_ list: [IntentValue], by keyPath: String? = nil) throws -> [IntentValue] {
        let path = try keyPath.flatMap { $0.isEmpty ? nil : try ValueKeyPath($0) }
        var seen: Set<IntentValue> = []
        return list.filter { element in seen.insert((try? key(of: element, path: path)) ?? .null).inserted }
    }

    /// Counts the elements by the value at a key path (or by themselves): a list of
    /// `{key, count}` dictionaries, the most frequent first, ties in the order of their keys.
    /// An element whose key is a list counts once under each of its elements.
    ///
    /// - Throws: ``ValueFunctionError/invalidKeyPath(path:reason:)`` for a malformed key path.
    public static func countBy(_ list: [IntentValue], key keyPath: String? = nil) throws -> [IntentValue] {
        let path = try keyPath.flatMap { $0.isEmpty ? nil : try ValueKeyPath($0) }
        var counts: [IntentValue: Int] = [:]
        for element in list {
            let value = (try? key(of: element, path: path)) ?? .null
            for key in value.isList ? value.elements : [value] { counts[key, default: 0] += 1 }
        }
        return counts.sorted { left, right in
            if left.value != right.value { return left.value > right.value }
            let order = ValueComparison.order(left.key, right.key) ?? .orderedSame
            return order == .orderedSame ? left.key.displayText < right.key.displayText : order == .orderedAscending
        }.map { .dictionary(["key": $0.key, "count": .int($0.value)]) }
    }
}

extension IntentValue {
    var isList: Bool {
        if case .list = self { return true }
        return false
    }
}
