import Foundation
import GRDB
import Testing

@testable import SpotlightKit

@Suite("Query language: parsing and errors")
struct QueryParsingTests {
    @Test func parsesAndPrintsCanonicalForm() throws {
        let expression = try QueryExpression.parse(#"keywords == "natural*"cwdt && (rankingHint >= 50 || !(title = "x"))"#)
        #expect(expression.description == #"(keywords == "natural*"cdwt && (rankingHint >= 50 || !title == "x"))"#)
    }

    @Test func acceptsEveryOperator() throws {
        for op in ["==", "=", "!=", "<", ">", "<=", ">="] {
            _ = try QueryExpression.parse("rankingHint \(op) 5")
        }
    }

    @Test func acceptsBracketModifiersAndBareWords() throws {
        let expression = try QueryExpression.parse(#"title ==[cd] "Paris" && contentTypeTree = public.image"#)
        #expect(expression.description == #"(title == "Paris"cd && contentTypeTree == "public.image")"#)
    }

    @Test func acceptsNumbersInEveryNotation() throws {
        #expect(try QueryExpression.parse("rankingHint == 0x1F").description == "rankingHint == 31")
        #expect(try QueryExpression.parse("rankingHint > -2.5e1").description == "rankingHint > -25")
        #expect(try QueryExpression.parse("rankingHint < .5").description == "rankingHint < 0.5")
    }

    @Test func acceptsTimeValues() throws {
        for value in [
            "$time.now", "$time.now(-3600)", "$time.today", "$time.today(-1)", "$time.yesterday",
            "$time.this_week", "$time.this_week(-1)", "$time.this_month(2)", "$time.this_year(-1)",
            "$time.iso(2024-01-02T00:00:00Z)", "$time.iso(2024-01-02)", #"$time.iso("2024-01-02T03:04:05.5+02:00")"#
        ] {
            _ = try QueryExpression.parse("lastUsedDate >= \(value)")
        }
    }

    @Test func escapesInsideStrings() throws {
        let expression = try QueryExpression.parse(#"title == "say \"hi\" \\ 5\*""#)
        guard case .comparison(_, _, .string(let pattern), _) = expression.root else {
            Issue.record("not a comparison")
            return
        }
        #expect(pattern.elements == Array(#"say "hi" \ 5*"#).map { .literal($0) })
    }

    @Test(arguments: [
        ("", 1, "empty"),
        ("title", 6, "comparison operator"),
        (#"title == "abc"#, 10, "Unterminated"),
        (#"title == "abc"x"#, 15, "Unknown modifier 'x'"),
        (#"title == "a" & title == "b""#, 14, "'&&'"),
        (#"title == "a" | title == "b""#, 14, "'||'"),
        (#"title == "a" title == "b""#, 14, "after a complete expression"),
        (#"(title == "a""#, 14, "Expected ')'"),
        (#"title == "a")"#, 13, "Unbalanced ')'"),
        (#"== "a""#, 1, "attribute name"),
        ("title == ", 10, "query ends"),
        (#"title < "a""#, 9, "numbers and dates"),
        ("title == 5", 10, "holds text"),
        (#"rankingHint == "high""#, 16, "numbers"),
        ("lastUsedDate > $time.tomorrow", 22, "Unknown time value"),
        ("lastUsedDate > $time.today(x)", 28, "must be a number"),
        ("lastUsedDate > $time.iso(2024-13-01)", 26, "ISO-8601"),
        ("lastUsedDate > $now", 16, "$time"),
        ("InRange(rankingHint, 1 5)", 24, "Expected ','"),
        (#"InRange(title, 1, 5)"#, 9, "numeric or date"),
        (#"InRange(rankingHint, "a", 5)"#, 22, "numbers or $time"),
        ("()", 2, "Empty parentheses"),
        ("title == \"a\" && ", 17, "expression was expected"),
        ("rankingHint == 12abc", 18, "after the number"),
        ("title # 3", 7, "Unexpected character")
    ])
    func malformedQueriesReportTheColumn(query: String, column: Int, fragment: String) {
        #expect(errorColumn(query) == column, "\(query)")
        #expect(errorMessage(query)?.contains(fragment) == true, "\(query): \(errorMessage(query) ?? "no error")")
    }

    @Test func errorDescriptionPointsAtTheColumn() {
        do {
            _ = try QueryExpression.parse(#"title == "abc"q"#)
            Issue.record("expected an error")
        } catch {
            let text = String(describing: error)
            #expect(text.contains("column 15"))
            #expect(text.hasSuffix("              ^"))
        }
    }
}

@Suite("Query language: SQL compilation")
struct QueryCompilationTests {
    @Test func userTextIsNeverSplicedIntoSQL() throws {
        let hostile = #"x'); DROP TABLE spotlightItem; --"#
        let escaped = hostile.replacingOccurrences(of: "\"", with: "\\\"")
        let expression = try QueryExpression.parse(#"title == "\#(escaped)"cd || weird.key == "\#(escaped)" || InRange(score, 1, 2)"#)
        let compiled = try QuerySQLCompiler.compile(expression, environment: QueryEnvironment())
        #expect(!compiled.sql.contains("DROP"))
        #expect(!compiled.sql.contains("weird.key"))
        #expect(compiled.sql.components(separatedBy: "?").count - 1 == compiled.arguments.count)
        #expect(compiled.arguments.contains(hostile.databaseValue))
    }

    @Test func hostileValuesAreMatchedLiterally() async throws {
        let index = try makeIndex()
        let hostile = #"Robert'); DROP TABLE spotlightItem; --"#
        try await index.indexSearchableItems([textItem("bobby", title: hostile)])
        #expect(try await search(#"title == "Robert'); DROP TABLE spotlightItem; --""#, in: index) == ["bobby"])
        #expect(try await index.itemCount() == 1)
    }
}

@Suite("Query language: matching")
struct QueryMatchingTests {
    /// A small corpus covering case, diacritics, words and camel case.
    func corpus() async throws -> SearchableIndex {
        let index = try makeIndex()
        var photo = SearchableItemAttributeSet(contentType: .jpeg)
        photo.displayName = "Sunset"
        photo.keywords = ["Natural Bridges State Park", "Utah"]
        photo.rankingHint = 80
        photo.lastUsedDate = Date(timeIntervalSince1970: 1_700_000_000)
        photo[customKey: "rating"] = .number(4)
        photo[customKey: "shotAt"] = .date(Date(timeIntervalSince1970: 1_690_000_000))
        photo[customKey: "camera"] = .string("Fujifilm X100")
        try await index.indexSearchableItems([
            SearchableItem(uniqueIdentifier: "photo", domainIdentifier: "photos", attributeSet: photo),
            textItem("cafe", title: "Café Müller", text: "A small café in Zürich", lastUsed: Date(timeIntervalSince1970: 1_600_000_000), hint: 20),
            textItem("paris", title: "Paris", text: "I love Paris"),
            textItem("lower", title: "paris"),
            textItem("file", title: "paris-france.jpg", text: "Comparison"),
            textItem("camel", title: "NaturalBridges", hint: 50),
            textItem("star", title: "5* hotel \\ spa", keywords: ["say \"hi\""])
        ])
        return index
    }

    @Test func theTagsFlowFindsThePhotoByKeywordPrefix() async throws {
        let index = try await corpus()
        #expect(try await search(#"keywords == "natural*"cwdt"#, in: index) == ["photo"])
    }

    @Test func plainEqualityIsExactAndCaseSensitive() async throws {
        let index = try await corpus()
        #expect(try await search(#"title == "Paris""#, in: index) == ["paris"])
        #expect(try await search(#"title == "paris""#, in: index) == ["lower"])
        #expect(try await search(#"keywords == "Utah""#, in: index) == ["photo"])
        #expect(try await search(#"keywords == "utah""#, in: index) == [])
    }

    @Test func caseModifier() async throws {
        let index = try await corpus()
        #expect(try await search(#"title == "PARIS"c"#, in: index) == ["lower", "paris"])
        #expect(try await search(#"title == "café müller""#, in: index) == [])
        #expect(try await search(#"title == "café müller"c"#, in: index) == ["cafe"])
    }

    @Test func diacriticModifier() async throws {
        let index = try await corpus()
        #expect(try await search(#"title == "Cafe Muller"d"#, in: index) == ["cafe"])
        #expect(try await search(#"title == "cafe*"d"#, in: index) == [])
        #expect(try await search(#"title == "cafe*"cd"#, in: index) == ["cafe"])
        #expect(try await search(#"textContent == "*zurich"cd"#, in: index) == ["cafe"])
        #expect(try await search(#"title == "Cafe Muller""#, in: index) == [])
    }

    @Test func cafeWithDFindsCafeWithAccent() async throws {
        let index = try makeIndex()
        try await index.indexSearchableItems([textItem("c1", title: "cafe"), textItem("c2", title: "café"), textItem("c3", title: "Café")])
        #expect(try await search(#"title == "cafe"d"#, in: index) == ["c1", "c2"])
        #expect(try await search(#"title == "cafe"cd"#, in: index) == ["c1", "c2", "c3"])
    }

    @Test func wordModifierMatchesWholeWordsAndCaseTransitions() async throws {
        let index = try await corpus()
        // "Paris"wc: "Paris", "paris", "I love Paris", "paris-france.jpg", not "Comparison".
        #expect(try await search(#"title == "paris"wc"#, in: index) == ["file", "lower", "paris"])
        #expect(try await search(#"textContent == "paris"wc"#, in: index) == ["paris"])
        #expect(try await search(#"textContent == "parison"wc"#, in: index) == [])
        // Lower-to-upper transitions are boundaries: "bridges" is a word of "NaturalBridges".
        #expect(try await search(#"title == "bridges"wc"#, in: index) == ["camel"])
        #expect(try await search(#"title == "bridge"wc"#, in: index) == [], "words must end on a boundary")
        #expect(try await search(#"title == "bridge*"wc"#, in: index) == ["camel"])
        #expect(try await search(#"title == "Bridges"w"#, in: index) == ["camel"])
        #expect(try await search(#"title == "bridges"w"#, in: index) == [], "w alone stays case-sensitive")
        // A run of words.
        #expect(try await search(#"keywords == "state park"wc"#, in: index) == ["photo"])
        #expect(try await search(#"keywords == "tate park"wc"#, in: index) == [])
        #expect(try await search(#"textContent == "love Paris"w"#, in: index) == ["paris"])
        #expect(try await search(#"textContent == "love paris"w"#, in: index) == [])
    }

    @Test func tokenizedModifierMatchesTokensInAnyOrder() async throws {
        let index = try await corpus()
        #expect(try await search(#"keywords == "park natural"ct"#, in: index) == ["photo"])
        #expect(try await search(#"keywords == "park nat*"ct"#, in: index) == ["photo"])
        #expect(try await search(#"keywords == "park nat"ct"#, in: index) == [], "tokens match whole tokens")
        #expect(try await search(#"title == "bridges"ct"#, in: index) == [], "without w, case transitions do not split tokens")
        #expect(try await search(#"title == "bridges"cwt"#, in: index) == ["camel"])
        #expect(try await search(#"keywords == "natural*"cwdt"#, in: index) == ["photo"])
    }

    @Test func wildcards() async throws {
        let index = try await corpus()
        #expect(try await search(#"title == "Par*""#, in: index) == ["paris"])
        #expect(try await search(#"title == "*ris""#, in: index) == ["lower", "paris"])
        #expect(try await search(#"title == "*ari*""#, in: index) == ["file", "lower", "paris"])
        #expect(try await search(#"title == "p*s-f*g""#, in: index) == ["file"])
        #expect(try await search(#"title == "*""#, in: index) == ["cafe", "camel", "file", "lower", "paris", "star"])
    }

    @Test func escapedCharactersMatchLiterally() async throws {
        let index = try await corpus()
        #expect(try await search(#"title == "5\* hotel \\ spa""#, in: index) == ["star"])
        #expect(try await search(#"title == "5\**""#, in: index) == ["star"])
        #expect(try await search(#"title == "5\*""#, in: index) == [])
        #expect(try await search(#"keywords == "say \"hi\"""#, in: index) == ["star"])
    }

    @Test func presenceTests() async throws {
        let index = try await corpus()
        #expect(try await search(#"keywords == "*""#, in: index) == ["photo", "star"])
        #expect(try await search(#"keywords != "*""#, in: index) == ["cafe", "camel", "file", "lower", "paris"])
        #expect(try await search(#"rankingHint == "*""#, in: index) == ["cafe", "camel", "photo"])
        #expect(try await search(#"camera == "*""#, in: index) == ["photo"])
        #expect(try await search(#"lastUsedDate != "*""#, in: index) == ["camel", "file", "lower", "paris", "star"])
    }

    @Test func notEqualIsTheNegationOfEqual() async throws {
        let index = try await corpus()
        #expect(try await search(#"title != "paris"c"#, in: index) == ["cafe", "camel", "file", "photo", "star"])
        #expect(try await search(#"keywords != "utah"c"#, in: index) == ["cafe", "camel", "file", "lower", "paris", "star"])
        #expect(try await search("rankingHint != 80", in: index) == ["cafe", "camel", "file", "lower", "paris", "star"])
    }

    @Test func numericOperators() async throws {
        let index = try await corpus()
        #expect(try await search("rankingHint == 50", in: index) == ["camel"])
        #expect(try await search("rankingHint = 50", in: index) == ["camel"])
        #expect(try await search("rankingHint < 50", in: index) == ["cafe"])
        #expect(try await search("rankingHint <= 50", in: index) == ["cafe", "camel"])
        #expect(try await search("rankingHint > 50", in: index) == ["photo"])
        #expect(try await search("rankingHint >= 50", in: index) == ["camel", "photo"])
        #expect(try await search("InRange(rankingHint, 20, 50)", in: index) == ["cafe", "camel"])
        #expect(try await search("kMDItemRankingHint > 79", in: index) == ["photo"])
    }

    @Test func booleanOperatorsAndParentheses() async throws {
        let index = try await corpus()
        #expect(try await search(#"title == "paris"c && textContent == "*""#, in: index) == ["paris"])
        #expect(try await search(#"title == "paris" || title == "Paris""#, in: index) == ["lower", "paris"])
        #expect(try await search(#"!(title == "paris"c) && title == "*""#, in: index) == ["cafe", "camel", "file", "star"])
        #expect(
            try await search(#"!(rankingHint < 50)"#, in: index) == ["camel", "file", "lower", "paris", "photo", "star"],
            "negation is a true complement, including items without the attribute")
        #expect(try await search(#"(rankingHint > 10 || title == "paris") && !(rankingHint == 80)"#, in: index) == ["cafe", "camel", "lower"])
        #expect(try await search(#"title == "paris" || title == "Paris" && rankingHint > 0"#, in: index) == ["lower"], "&& binds tighter than ||")
    }

    @Test func datesAndTimeValues() async throws {
        let index = try await corpus()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        // 2023-11-14T22:13:20Z is the photo's lastUsedDate; pretend it is noon the next day.
        let now = Date(timeIntervalSince1970: 1_700_049_600)
        let environment = QueryEnvironment(now: now, calendar: calendar)
        #expect(try await search("lastUsedDate >= $time.today(-1)", in: index, environment: environment) == ["photo"])
        #expect(try await search("lastUsedDate >= $time.today", in: index, environment: environment) == [])
        #expect(try await search("lastUsedDate >= $time.yesterday", in: index, environment: environment) == ["photo"])
        #expect(try await search("lastUsedDate > $time.now(-86400)", in: index, environment: environment) == ["photo"])
        #expect(try await search("lastUsedDate > $time.now(-3600)", in: index, environment: environment) == [])
        #expect(try await search("lastUsedDate >= $time.this_week", in: index, environment: environment) == ["photo"])
        #expect(try await search("lastUsedDate >= $time.this_month", in: index, environment: environment) == ["photo"])
        #expect(try await search("lastUsedDate < $time.this_month(-1)", in: index, environment: environment) == ["cafe"])
        #expect(try await search("lastUsedDate >= $time.this_year(-3)", in: index, environment: environment) == ["cafe", "photo"])
        #expect(try await search("lastUsedDate < $time.iso(2021-01-01T00:00:00Z)", in: index, environment: environment) == ["cafe"])
        #expect(
            try await search("InRange(lastUsedDate, $time.iso(2020-01-01), $time.iso(2024-01-01))", in: index, environment: environment) == [
                "cafe", "photo"
            ])
        #expect(try await search("kMDItemLastUsedDate == $time.iso(2023-11-14T22:13:20Z)", in: index, environment: environment) == ["photo"])
        // A bare number compared with a date is seconds since 2001-01-01.
        #expect(try await search("lastUsedDate == \(1_700_000_000 - 978_307_200)", in: index, environment: environment) == ["photo"])
    }

    @Test func customAttributes() async throws {
        let index = try await corpus()
        let environment = QueryEnvironment(now: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try await search("rating >= 4", in: index) == ["photo"])
        #expect(try await search("rating > 4", in: index) == [])
        #expect(try await search("InRange(rating, 3, 5)", in: index) == ["photo"])
        #expect(try await search("rating != 4", in: index) == ["cafe", "camel", "file", "lower", "paris", "star"])
        #expect(try await search(#"camera == "fuji*"c"#, in: index) == ["photo"])
        #expect(try await search(#"camera == "x100"cw"#, in: index) == ["photo"])
        #expect(try await search("shotAt < $time.now", in: index, environment: environment) == ["photo"])
        #expect(try await search("shotAt > $time.now", in: index, environment: environment) == [])
    }

    @Test func contentTypeMatchesTheWholeTree() async throws {
        let index = try await corpus()
        #expect(try await search(#"contentType == "public.image""#, in: index) == ["photo"])
        #expect(try await search(#"contentType == "public.jpeg""#, in: index) == ["photo"])
        #expect(try await search(#"kMDItemContentTypeTree == "public.text""#, in: index).count == 6)
        #expect(try await search(#"contentTypeTree == public.image"#, in: index) == ["photo"])
        #expect(try await search(#"kMDItemContentType == "public.item""#, in: index).count == 7)
    }

    @Test func singleQuotesAndTheSeedFilterSyntax() async throws {
        let index = try await corpus()
        #expect(try await search("title == 'Paris'", in: index) == ["paris"])
        #expect(try await search(#"title == 'say "x"'c || title == 'paris'"#, in: index) == ["lower"])
        #expect(try await search("contentTypeTree=\"public.image\"", in: index) == ["photo"])
    }

    @Test func metadataSpellingsAndStarAttribute() async throws {
        let index = try await corpus()
        #expect(try await search(#"kMDItemTitle == "paris"c"#, in: index) == ["lower", "paris"])
        #expect(try await search(#"kMDItemDisplayName == "Sunset""#, in: index) == ["photo"])
        #expect(try await search(#"kMDItemTextContent == "*love*""#, in: index) == ["paris"])
        #expect(try await search(#"kMDItemKeywords == "utah"c"#, in: index) == ["photo"])
        #expect(try await search(#"domainIdentifier == "photos""#, in: index) == ["photo"])
        #expect(try await search(#"uniqueIdentifier == "caf*""#, in: index) == ["cafe"])
        #expect(try await search(#"* == "zurich"cdw"#, in: index) == ["cafe"])
        #expect(try await search(#"* == "sunset"c"#, in: index) == ["photo"])
    }
}

@Suite("Text matcher")
struct TextMatcherTests {
    func matches(_ value: String, _ query: String) throws -> Bool {
        let expression = try QueryExpression.parse("title == \(query)")
        guard case .comparison(_, _, .string(let pattern), _) = expression.root else { return false }
        return TextMatcher.matches(value, CompiledPattern(pattern))
    }

    @Test func wordBoundaries() throws {
        #expect(try matches("NaturalBridges", #""natural"w"#) == false, "w is case-sensitive")
        #expect(try matches("NaturalBridges", #""Natural"w"#))
        #expect(try matches("iPhoneCase", #""phone"wc"#))
        #expect(try matches("HTTPServer", #""server"wc"#) == false, "no lower-to-upper transition before Server")
        #expect(try matches("version2beta", #""version2beta"w"#))
        #expect(try matches("state_park", #""park"wc"#))
    }

    @Test func multiValuedValues() throws {
        #expect(try matches("alpha\u{1F}Beta Gamma", #""gamma"cw"#))
        #expect(try matches("alpha\u{1F}Beta Gamma", #""alpha beta"cw"#) == false, "elements match separately")
    }

    @Test func diacriticsAndSpecialLetters() throws {
        #expect(try matches("Øresund", #""oresund"cd"#))
        #expect(try matches("Łódź", #""lodz"cd"#))
        #expect(try matches("naïve", #""naive"d"#))
        #expect(try matches("naïve", #""naive""#) == false)
    }
}
