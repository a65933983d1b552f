import Foundation
import GRDB
import SeededRandom
import Testing

@testable import SpotlightKit

@Suite("Fast paths agree with their references")
struct FastPathTests {
    static let words = [
        "kayak", "Kayaking", "kelp", "Crawdad", "crawl", "café", "Cafe", "naïve", "NaturalBridges",
        "bridge", "ridge", "shore", "shoreline", "tide", "Tidepool", "otter", "ottoman", "sea", "seal", "season"
    ]

    /// Items of two indexes sharing a database, with every ranking signal varied.
    static func generatedIndex(seed: UInt64) async throws -> (SearchableIndex, QueryEnvironment) {
        var random = SeededRandomNumberGenerator(seed: seed)
        let database = try DatabaseQueue()
        let index = try SearchableIndex(name: "main", database: database)
        let other = try SearchableIndex(name: "other", database: database)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        func sentence(_ range: ClosedRange<Int>) -> String {
            (0..<Int.random(in: range, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
        }
        var items: [SearchableItem] = []
        for number in 0..<400 {
            var item = textItem(
                "i\(number)", title: sentence(1...3), displayName: Bool.random(using: &random) ? sentence(1...2) : nil,
                text: sentence(0...12), keywords: Bool.random(using: &random) ? [sentence(1...2), sentence(1...1)] : nil,
                contentType: number % 3 == 0 ? .jpeg : .plainText,
                lastUsed: number % 4 == 0 ? now.addingTimeInterval(-Double(number % 90) * 86_400) : nil,
                hint: number % 5 == 0 ? nil : Int.random(in: 0...100, using: &random))
            if number % 9 == 0 { item.attributeSet.textContent = nil }
            items.append(item)
        }
        try await index.indexSearchableItems(items)
        try await other.indexSearchableItems(
            items.prefix(50).map { item in
                var copy = item
                copy.expirationDate = nil
                return copy
            })
        // Engagement on a few items.
        let environment = QueryEnvironment(now: now)
        let seed = try await userSearch("kayak", context: UserQueryContext(maxResultCount: 30), in: index, environment: environment).items
        let query = UserQuery(userQueryString: "kayak", index: index, environment: environment)
        for (offset, item) in seed.enumerated() where offset % 7 == 3 {
            try await query.userEngaged(item, visibleItems: Array(seed.prefix(10)), interaction: offset % 2 == 0 ? .select : .focus)
        }
        return (index, environment)
    }

    static func ranked(
        _ text: String, context: UserQueryContext, index: SearchableIndex, environment: QueryEnvironment,
        candidateLimit: Int? = nil
    ) async throws -> [UserQuery.Item] {
        let filters = try context.filterQueries.map { try QueryExpression.parse($0) }
        let filter = CompiledFilter.and(try filters.map { try QuerySQLCompiler.compile($0, environment: environment) })
        let storage = index.storage
        let ftsQuery = UserQuery.fullTextQuery(text)
        let now = environment.now.timeIntervalSince1970
        return try await storage.writer.read { db in
            SpotlightFunctions.install(in: db)
            if let candidateLimit, let ftsQuery {
                return try UserQuery.topRankedItems(
                    ftsQuery: ftsQuery, filter: filter, wanted: [], context: context,
                    storage: storage, now: now, candidateLimit: candidateLimit, in: db)
            }
            return try UserQuery.exhaustiveRankedItems(
                ftsQuery: ftsQuery, filter: filter, wanted: [], context: context,
                storage: storage, now: now, in: db)
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func boundedRankingMatchesTheExhaustiveRanking(seed: UInt64) async throws {
        let (index, environment) = try await Self.generatedIndex(seed: seed)
        let queries = ["kayak", "k", "ka", "sea", "se", "shore tide", "caf", "cafe", "naive", "tide otter", "crawdad", "bridges", "zzz"]
        let filters: [[String]] = [[], [#"contentTypeTree == "public.image""#], ["rankingHint >= 50"]]
        var compared = 0
        for text in queries {
            for filterQueries in filters {
                for limit in [nil, 1, 3, 10, 25] as [Int?] {
                    let context = UserQueryContext(
                        filterQueries: filterQueries, enableRankedResults: true,
                        maxResultCount: limit, maxRankedResultCount: 2)
                    let bounded = try await Self.ranked(
                        text, context: context, index: index, environment: environment,
                        candidateLimit: 100_000)
                    let reference = try await Self.ranked(text, context: context, index: index, environment: environment)
                    #expect(bounded.map(\.id) == reference.map(\.id), "\(text) \(filterQueries) \(String(describing: limit))")
                    #expect(bounded.map(\.rank) == reference.map(\.rank))
                    #expect(bounded.map(\.isTopHit) == reference.map(\.isTopHit))
                    for (fast, slow) in zip(bounded, reference) {
                        #expect(abs(fast.score - slow.score) < 1e-12)
                        #expect(fast.explanation.bm25 == slow.explanation.bm25)
                        #expect(abs(fast.explanation.relevance - slow.explanation.relevance) < 1e-12)
                    }
                    compared += reference.count
                }
            }
        }
        #expect(compared > 1_000)
    }

    @Test func beyondTheCandidateLimitOnlyTheNewestMatchesAreRanked() async throws {
        let (index, environment) = try await Self.generatedIndex(seed: 4)
        let context = UserQueryContext(maxResultCount: 10)
        let all = try await Self.ranked("s", context: UserQueryContext(), index: index, environment: environment)
        #expect(all.count > 300)
        let newest = try await index.database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT i.uniqueIdentifier FROM (
                        SELECT rowid AS id FROM spotlightItemFTS WHERE spotlightItemFTS MATCH '"s"*' ORDER BY rowid DESC LIMIT 150
                    ) m JOIN spotlightItem i ON i.id = m.id WHERE i.indexId = ?
                    """, arguments: [index.storage.indexId])
        }
        let limited = try await Self.ranked("s", context: context, index: index, environment: environment, candidateLimit: 150)
        #expect(limited.count == 10)
        #expect(limited.allSatisfy { Set(newest).contains($0.id) })
        #expect(Set(limited.map(\.id)) != Set(all.prefix(10).map(\.id)), "the limit changes what is ranked")
        #expect(zip(limited, limited.dropFirst()).allSatisfy { $0.score >= $1.score })
    }

    @Test(arguments: [UInt64(11), 12])
    func likePrefilterNeverChangesAStringMatch(seed: UInt64) async throws {
        var random = SeededRandomNumberGenerator(seed: seed)
        let pieces = [
            "ka", "Ka", "KA", "yak", "é", "e\u{301}", "É", "\u{212A}", "ß", "ss", "İ", "i", "ø", "o", "Natural", "Bridges",
            " ", "-", "_", "%", "\u{1F}", "1", "x", "ﬁ", "fi"
        ]
        func text(_ count: ClosedRange<Int>) -> String {
            (0..<Int.random(in: count, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        let index = try makeIndex()
        var values: [String: String?] = [:]
        var items: [SearchableItem] = []
        for number in 0..<300 {
            let value: String? = number % 25 == 0 ? nil : text(0...6)
            values["v\(number)"] = value
            items.append(textItem("v\(number)", title: value))
        }
        try await index.indexSearchableItems(items)
        let patternPieces = ["ka", "K", "yak", "é", "e", "\u{212A}", "ss", "i", "o", "natural", "bridge", " ", "-", "_", "%", "1", "fi", "*"]
        let modifierSets = ["", "c", "d", "cd", "w", "cw", "cdw", "t", "ct", "cdt", "cdwt", "wt"]
        var checked = 0
        for _ in 0..<120 {
            let pattern = (0..<Int.random(in: 1...3, using: &random)).map { _ in patternPieces.randomElement(using: &random)! }.joined()
            let modifiers = modifierSets.randomElement(using: &random)!
            let queryString = "title == \"\(pattern)\"\(modifiers)"
            let expression = try QueryExpression.parse(queryString)
            guard case .comparison(_, _, .string(let parsed), _) = expression.root else {
                Issue.record("not a string comparison: \(queryString)")
                continue
            }
            let compiled = CompiledPattern(parsed)
            let expected = values.filter { _, value in value.map { TextMatcher.matches($0, compiled) } ?? false }.keys.sorted()
            let got = try await search(queryString, in: index)
            #expect(
                got == expected,
                "\(queryString) \(Set(got).symmetricDifference(expected).map { ($0, values[$0]!.map { Array($0.unicodeScalars).map(\.value) }) })")
            let negated = values.keys.filter { !expected.contains($0) }.sorted()
            #expect(try await search("title != \"\(pattern)\"\(modifiers)", in: index) == negated, "\(queryString)")
            checked += 1
        }
        #expect(checked == 120)
    }

    @Test func scalarByScalarFoldingEqualsWholeTextNormalization() {
        var random = SeededRandomNumberGenerator(seed: 21)
        let pieces = [
            "a", "Z", "é", "e\u{301}", "\u{301}", "É", "\u{212A}", "\u{212B}", "Å", "ß", "ẞ", "İ", "ı", "ø", "Ø",
            "ﬁ", "Ǆ", "ǅ", "ῼ", "\u{1100}", "\u{1161}", "\u{11A8}", "가", "각", "\u{0958}", "\u{0915}\u{093C}",
            "\u{0B47}", "\u{0B3E}", "\u{0344}", "ḉ", "\u{1E9B}\u{0323}", "Ω", "\u{2126}", "😀", "١", "Ⅻ", " ", "-", "\u{1F}",
            "q\u{0307}\u{0323}", "x", "Naïve", "CamelCase"
        ]
        var checked = 0
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            for modifiers in [MatchModifiers(), [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive]] {
                for camel in [false, true] {
                    let fast = FoldedText<Unicode.Scalar>(Substring(text), modifiers: modifiers, camelCaseBoundaries: camel)
                    let whole = FoldedText<Unicode.Scalar>(
                        Substring(text), modifiers: modifiers, camelCaseBoundaries: camel,
                        scalarByScalar: false)
                    #expect(fast.elements == whole.elements, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
                    #expect(fast.isWordCharacter == whole.isWordCharacter)
                    #expect(fast.startsWord == whole.startsWord)
                    checked += 1
                }
            }
        }
        #expect(checked == 16_000)
    }

    @Test func likePrefiltersFollowTheModifiers() {
        func likes(_ text: String, _ modifiers: MatchModifiers) -> [String] {
            QuerySQLCompiler.likePrefilters(StringPattern.decode(text, modifiers: modifiers))
        }
        #expect(likes("kalo*", [.caseInsensitive]) == ["%kalo%"])
        #expect(likes("Ka*lo", []) == ["%Ka%lo%"])
        #expect(likes("café", [.diacriticInsensitive]) == ["%cafe%"])
        #expect(likes("café", []).isEmpty, "a non-ASCII literal never matches an ASCII value; no prefilter is needed")
        #expect(likes("50%_off", []) == [#"%50\%\_off%"#])
        #expect(likes("*o%", []) == [#"%o\%%"#], "an escaped % is no wildcard")
        #expect(likes("sea otter", [.tokenized]) == ["%sea%", "%otter%"])
        #expect(likes("*", []).isEmpty)
        #expect(likes("", []).isEmpty)
    }
}
