#if Web
    import Foundation
    import SpotlightKit

    /// `/search?q=&index=`: the search indexes searched as `shortcuts search --explain` searches
    /// them (typed words, and meaning where semantic search is on), each result with its score
    /// taken apart: each signal, its weight and what it adds, and how the relevance was found.
    struct SearchPage: Sendable {
        struct Choice: Sendable {
            var value: String
            var isSelected: Bool
        }

        struct Term: Sendable {
            var name: String
            var weight: String
            var value: String
            var contribution: String
        }

        struct Result: Sendable {
            var rank: Int
            var title: String
            var detail: String
            var source: String
            var score: String?
            var terms: [Term]
            var hasTerms: Bool
            var relevance: String?
        }

        struct Suggestion: Sendable {
            var text: String
            var href: String
        }

        var chrome: PageChrome
        var query: String
        var indexes: [Choice]
        var hasSearched: Bool
        var results: [Result]
        var hasResults: Bool
        var suggestions: [Suggestion]
        var hasSuggestions: Bool
        var hasLeftOutWords: Bool
        var error: String?
        var errorHelp: [String]

        static func make(fields: FormFields, site: DashboardSite, context: DashboardContext) async throws -> (SearchPage, status: Int) {
            let query = fields.nonEmpty("q") ?? ""
            let index = fields.nonEmpty("index")
            let catalog = site.configuration.search
            let names = catalog.indexNames
            var page = SearchPage(
                chrome: PageChrome(title: query.isEmpty ? "Search" : "Search: \(query)", section: .search, context: context), query: query,
                indexes: names.map { Choice(value: $0, isSelected: $0 == index) }, hasSearched: !query.isEmpty, results: [], hasResults: false,
                suggestions: [], hasSuggestions: false, hasLeftOutWords: false, error: nil, errorHelp: [])
            if let index, !names.contains(index) {
                page.error = "no search index '\(index)'"
                page.errorHelp = names.isEmpty ? ["no installed app keeps an index"] : ["the indexes are " + names.joined(separator: ", ")]
                return (page, 400)
            }
            guard !query.isEmpty else { return (page, 200) }
            var request = SearchRequest(text: query, indexNames: index.map { [$0] }, limit: 20, maxSuggestionCount: 3)
            request.retrieval = .hybrid
            let response: SearchResponse
            do {
                response = try await catalog.search(request)
            } catch {
                let message: String = site.mask.mask(String(describing: error))
                page.error = message
                return (page, 400)
            }
            func number(_ value: Double, digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }
            page.results = response.hits.enumerated().map { offset, hit in
                let terms = hit.explanation?.terms ?? []
                return Result(
                    rank: offset + 1, title: hit.shownTitle, detail: hit.shownDetail, source: hit.shownSource, score: hit.score.map { number($0) },
                    terms: terms.map {
                        Term(name: $0.name, weight: number($0.weight, digits: 2), value: number($0.value), contribution: number($0.contribution))
                    }, hasTerms: !terms.isEmpty, relevance: hit.explanation?.relevanceDetail)
            }
            page.hasResults = !page.results.isEmpty
            page.suggestions = response.suggestions.map { suggestion in
                var href = "/search?q=" + (suggestion.text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                if let index { href += "&index=" + (index.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") }
                return Suggestion(text: suggestion.text, href: href)
            }
            page.hasSuggestions = !page.suggestions.isEmpty
            page.hasLeftOutWords = response.leftOutWordCount > 0
            return (page, 200)
        }
    }
#endif
