import Foundation

extension RelevanceSet {
    /// What makes the set unusable for measurement: duplicate identifiers, judgements of items
    /// that do not exist (with the closest existing identifier), grades outside 1–3, and queries
    /// without a relevant item. Empty when the set is well formed.
    ///
    /// ```swift
    /// for problem in set.problems() { print(problem) }
    /// // queries.json: q-jogging: judges 'j-run-rivr', which is not an item
    /// // help: did you mean 'j-run-river'?
    /// ```
    ///
    /// - Returns: One description per problem, in file order.
    public func problems() -> [String] {
        var problems: [String] = []
        var itemIdentifiers: Set<String> = []
        for item in items where !itemIdentifiers.insert(item.id).inserted {
            problems.append("items.json: item '\(item.id)' appears more than once")
        }
        for item in items where item.title.isEmpty && item.text.isEmpty {
            problems.append("items.json: item '\(item.id)' has neither a title nor a text")
        }
        var queryIdentifiers: Set<String> = []
        for query in queries {
            if !queryIdentifiers.insert(query.id).inserted {
                problems.append("queries.json: query '\(query.id)' appears more than once")
            }
            if query.text.trimmingCharacters(in: .whitespaces).isEmpty {
                problems.append("queries.json: \(query.id): the query text is empty")
            }
            for (itemIdentifier, grade) in query.judgements.sorted(by: { $0.key < $1.key }) {
                if !itemIdentifiers.contains(itemIdentifier) {
                    var problem = "queries.json: \(query.id): judges '\(itemIdentifier)', which is not an item"
                    if let closest = Self.closest(to: itemIdentifier, among: itemIdentifiers) {
                        problem += "\nhelp: did you mean '\(closest)'?"
                    }
                    problems.append(problem)
                }
                if !(1...3).contains(grade) {
                    problems.append(
                        "queries.json: \(query.id): grade \(grade) for '\(itemIdentifier)' is outside 1–3 (leave unrelated items out)")
                }
            }
            if !query.judgements.values.contains(where: { $0 > 0 }) {
                problems.append("queries.json: \(query.id): no item is judged relevant")
            }
        }
        return problems
    }

    /// The identifier with the fewest edits from `identifier`, when it is close enough to be a typo.
    static func closest(to identifier: String, among candidates: Set<String>) -> String? {
        let scored = candidates.map { ($0, editDistance(Array(identifier), Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return nil }
        return best.1 <= max(2, identifier.count / 3) ? best.0 : nil
    }

    /// Levenshtein distance.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
