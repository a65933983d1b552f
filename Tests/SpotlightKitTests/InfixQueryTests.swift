import Foundation
import GRDB
import Testing

@testable import SpotlightKit

/// Infix query strings (`*mira*`) served by the full-text vocabulary instead of a scan.
@Suite("Infix query strings")
struct InfixQueryTests {
    func index() async throws -> SearchableIndex {
        let index = try makeIndex()
        try await index.indexSearchableItems([
            textItem("admirable", title: "One", text: "The admirable one"),
            textItem("mirabelle", title: "Two", text: "Mirabelle plum", keywords: ["Yellow", "fruit"]),
            textItem("amiral", title: "Three", text: "AMIRAL"),
            textItem("accent", title: "mira", text: "Míra in Prague"),
            textItem("special", title: "Five", text: "møra and more"),
            textItem("nothing", title: "Six", text: "nothing here"),
            textItem("kyoto", title: "Seven", text: "渡月橋から見る紅葉が見事だった。")
        ])
        return index
    }

    @Test func infixPatternsFindWhatTheMatcherFinds() async throws {
        let index = try await index()
        #expect(try await search(#"textContent == "*mira*"c"#, in: index) == ["admirable", "amiral", "mirabelle"])
        #expect(try await search(#"textContent == "*mira*"cd"#, in: index) == ["accent", "admirable", "amiral", "mirabelle"])
        #expect(try await search(#"textContent == "*mira*""#, in: index) == ["admirable"])
        #expect(try await search(#"textContent == "*mora*"cd"#, in: index) == ["special"], "ø is o without diacritics")
        #expect(try await search(#"textContent == "*mora*"c"#, in: index).isEmpty)
        #expect(try await search(#"* == "*mira*"c"#, in: index) == ["accent", "admirable", "amiral", "mirabelle"])
        #expect(try await search(#"keywords == "*ello*"c"#, in: index) == ["mirabelle"])
        #expect(try await search(#"textContent == "*e plu*"c"#, in: index) == ["mirabelle"])
        #expect(try await search(#"textContent == "*紅葉*""#, in: index) == ["kyoto"])
        #expect(try await search(#"textContent == "*zzz*"c"#, in: index).isEmpty)
        #expect(try await search(#"textContent != "*mira*"c"#, in: index) == ["accent", "kyoto", "nothing", "special"])
        #expect(try await search(#"textContent == "*mira*"cd && title == "mira""#, in: index) == ["accent"])
    }

    @Test func theCandidatesAreLookedUpInTheVocabularyAndReadByRowid() async throws {
        let index = try await index()
        let expression = try QueryExpression.parse(#"contentType == "public*" && textContent == "*Mira*"c"#)
        let requirement = try #require(VocabularyPrefilter.requirement(of: expression))
        #expect(requirement == VocabularyPrefilter.Requirement(column: "textContent", piece: "mira"))
        let ids = try await index.database.read { db in try VocabularyPrefilter.candidates(for: requirement, in: db) }
        #expect(ids?.count == 4, "admirable, Mirabelle, AMIRAL, Míra: a superset of the matches")
        #expect(VocabularyPrefilter.requirement(of: try QueryExpression.parse(#"textContent == "*mira*"c || title == "x""#)) == nil)
        #expect(VocabularyPrefilter.requirement(of: try QueryExpression.parse(#"keywords == "kalo*"cwdt"#)) == nil, "prefixes use LIKE")

        let prepared = SearchQuery.Results.Iterator.Prepared(
            filterSQL: "1", arguments: [], wanted: [], now: 0, requirement: nil, candidates: nil)
        let plan = try await index.database.read { db -> String in
            let rows = try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + prepared.sql(readingCandidates: true), arguments: [1, 0, 0, "[1,2]", 10])
            return rows.map { $0["detail"] as String }.joined(separator: "\n")
        }
        #expect(plan.contains("SEARCH i USING INTEGER PRIMARY KEY"), "\(plan)")
        #expect(VocabularyPrefilter.piece(of: try #require(Self.pattern(#""*e pl*""#))) == nil, "runs shorter than 3 are not looked up")
        #expect(VocabularyPrefilter.piece(of: try #require(Self.pattern(#""*Míra* in*""#))) == "mira")
    }

    static func pattern(_ text: String) -> StringPattern? {
        guard case .comparison(_, _, .string(let pattern), _)? = try? QueryExpression.parse("title == " + text).root else { return nil }
        return pattern
    }
}
