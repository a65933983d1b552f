// `spotlight-bench relevance`: nDCG@10 and recall@20 of lexical, semantic and hybrid user
// queries on the hand-judged set in Benchmarks/Relevance.
//
// Usage: spotlight-bench relevance [--set DIR] [--model DIR] [--identifier NAME] [--floor COSINE]
//   SHORTCUTS_TEST_MODEL_DIR=/path/to/all-MiniLM-L6-v2 swift run -c release spotlight-bench relevance
//   swift run -c release spotlight-bench relevance --model ~/models/multilingual-e5-small --floor 0.83
//
// The model folder holds config.json, tokenizer.json and model.safetensors; without one the model
// `shortcuts models install` put in $SHORTCUTS_HOME/models is used, and without that only lexical
// retrieval is measured. A folder's similarity floor defaults to 0.2 (all-MiniLM-L6-v2's), an
// installed model's is its own; the identifier stored with the vectors defaults to the folder's name.
import Foundation
import SearchRelevance
import SpotlightKit
import TextEmbedding

/// One way of searching, measured over the whole set.
struct RelevanceRow {
    var name: String
    var evaluation: RelevanceEvaluation
    /// The column heading in the per-kind table.
    var label: String { shortLabels[name] ?? name }
}

let shortLabels = [
    "semantic, exact cosine (reference)": "sem. ref", "hybrid, reference RRF k=60": "RRF ref", "hybrid, reference weighted sum": "w.sum ref",
    "hybrid, weighted sum w=0.5": "w.sum .5", "hybrid, weighted sum w=0.7": "w.sum .7", "hybrid, RRF k=60 (default)": "RRF"
]

/// The queries the issue names, with the entry each must find.
let issueQueries = [
    ("jogging", "j-run-river"), ("runs", "j-run-river"), ("Kyoto", "j-arashiyama-koyo"), ("autumn leaves", "j-arashiyama-koyo"),
    ("windsurfing", "j-enoshima-windsurf"), ("sailing", "j-windsurf-carmel"), ("surfing", "j-windsurf-carmel")
]

func runRelevanceBenchmark(arguments: [String]) async throws {
    func value(of option: String) -> String? {
        arguments.firstIndex(of: option).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    }
    let setDirectory = URL(
        fileURLWithPath: value(of: "--set")
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Benchmarks/Relevance").path)
    let set = try RelevanceSet(contentsOf: setDirectory)
    let problems = set.problems()
    guard problems.isEmpty else {
        for problem in problems { print("\(setDirectory.path)/\(problem)") }
        exit(1)
    }
    let languages = Dictionary(grouping: set.queries, by: \.language).mapValues(\.count)
    print(
        "relevance set: \(set.items.count) items, \(set.queries.count) queries ("
            + languages.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + ")")

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotlight-relevance-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let index = try SearchableIndex(name: "relevance", databasePath: directory.appendingPathComponent("relevance.sqlite").path)
    try await index.indexSearchableItems(set.items.map(\.searchableItem))

    var rows: [RelevanceRow] = []
    rows.append(RelevanceRow(name: "lexical", evaluation: try await RelevanceEvaluation(set: set) { try await ranking(of: $0.text, in: index) }))

    let embedder = try relevanceEmbedder(
        modelDirectory: value(of: "--model"), identifier: value(of: "--identifier"), floor: value(of: "--floor").flatMap(Float.init))
    if let embedder {
        print("model: \(embedder.identifier), similarity floor \(embedder.similarityFloor)")
        let clock = ContinuousClock()
        let embedding = try await clock.measure {
            try await index.setSemanticSearch(enabled: true, embedder: embedder)
            try await index.embedPendingItems(batchSize: 32)
            await index.waitForSemanticIndexing()
        }
        let progress = try await index.semanticIndexingProgress()
        print(
            String(
                format: "embedded %d of %d items in %.1f s", progress?.embeddedCount ?? 0, progress?.totalCount ?? 0,
                Double(embedding.components.seconds) + Double(embedding.components.attoseconds) / 1e18))
        func mode(_ retrieval: RetrievalMode, _ fusion: RankFusion = .standard) -> UserQueryContext {
            var context = UserQueryContext(maxResultCount: 20)
            context.retrieval = retrieval
            context.fusion = fusion
            return context
        }
        let lexicalContext = mode(.lexical)
        rows[0] = RelevanceRow(
            name: "lexical",
            evaluation: try await RelevanceEvaluation(set: set) { try await ranking(of: $0.text, in: index, context: lexicalContext) })
        let modes: [(String, UserQueryContext)] = [
            ("semantic", mode(.semantic)),
            ("hybrid, weighted sum w=0.5", mode(.hybrid, .weightedSum(semanticWeight: 0.5))),
            ("hybrid, weighted sum w=0.7", mode(.hybrid, .weightedSum(semanticWeight: 0.7))),
            ("hybrid, RRF k=60 (default)", mode(.hybrid))
        ]
        var indexRows: [RelevanceRow] = []
        for (name, context) in modes {
            indexRows.append(
                RelevanceRow(
                    name: name, evaluation: try await RelevanceEvaluation(set: set) { try await ranking(of: $0.text, in: index, context: context) }))
        }
        let references = try await referenceRows(set: set, embedder: embedder, lexical: rows[0].evaluation)
        rows = [rows[0]] + references + indexRows
        try await printFloorSweep(set: set, index: index, embedder: embedder, context: mode(.hybrid), semanticContext: mode(.semantic))
    } else {
        print(
            "no embedding model: semantic and hybrid are not measured. Pass --model DIR or set SHORTCUTS_TEST_MODEL_DIR to a folder"
                + " with config.json, tokenizer.json and model.safetensors (all-MiniLM-L6-v2).")
    }
    printRelevanceTable(rows, set: set)
}

/// The item identifiers a user query returns, best first: the top 20, as a search field shows.
func ranking(of text: String, in index: SearchableIndex, context: UserQueryContext = UserQueryContext(maxResultCount: 20)) async throws
    -> [String]
{
    var identifiers: [String] = []
    for try await response in UserQuery(userQueryString: text, context: context, index: index).responses {
        if case .item(let item) = response { identifiers.append(item.id) }
    }
    return identifiers
}

/// The embedder in `--model DIR` or `SHORTCUTS_TEST_MODEL_DIR`, else the installed model; `nil` when there is none.
func relevanceEmbedder(modelDirectory: String?, identifier: String?, floor: Float?) throws -> (any TextEmbedder)? {
    guard let path = modelDirectory ?? ProcessInfo.processInfo.environment["SHORTCUTS_TEST_MODEL_DIR"], !path.isEmpty else {
        // The model `shortcuts models install` put in $SHORTCUTS_HOME/models, if any.
        guard let installed = try ModelStore.standard().loadEmbedder() else { return nil }
        return floor.map { FloorOverride(base: installed, similarityFloor: $0) } ?? installed
    }
    let directory = URL(fileURLWithPath: path)
    return try TransformerEmbedder(directory: directory, identifier: identifier ?? directory.lastPathComponent, similarityFloor: floor ?? 0.2)
}

/// Queries about nothing in the set: above a well-chosen floor, semantic search returns nothing for them.
let unrelatedQueries = [
    "cryptocurrency wallet password", "spreadsheet pivot table formula", "printer driver installation", "クレジットカードの暗証番号",
    "kubernetes pod eviction"
]

/// The embedder with another similarity floor; the same model, so the index's vectors stay valid.
struct FloorOverride: TextEmbedder {
    let base: any TextEmbedder
    let similarityFloor: Float
    var identifier: String { base.identifier }
    var dimension: Int { base.dimension }
    func embed(_ texts: [String], role: EmbeddingRole) throws -> [[Float]] { try base.embed(texts, role: role) }
}

/// Hybrid nDCG@10 and recall@20 at several similarity floors around the model's own (seven steps
/// of 0.05 centred on it), with how many items semantic search returns for queries about nothing
/// in the set.
func printFloorSweep(
    set: RelevanceSet, index: SearchableIndex, embedder: any TextEmbedder, context: UserQueryContext, semanticContext: UserQueryContext
) async throws {
    print("")
    print(
        "similarity floor: hybrid (RRF) nDCG@10 and recall@20; semantic results (of at most 20) for "
            + unrelatedQueries.map { "\"\($0)\"" }.joined(separator: ", "))
    let centre = (embedder.similarityFloor * 20).rounded() / 20
    for floor in (-2...4).map({ max(0, centre + Float($0) * 0.05) }) {
        await index.attach(embedder: FloorOverride(base: embedder, similarityFloor: floor))
        await index.waitForSemanticIndexing()
        let evaluation = try await RelevanceEvaluation(set: set) { try await ranking(of: $0.text, in: index, context: context) }
        var unrelatedCounts: [Int] = []
        for text in unrelatedQueries { unrelatedCounts.append(try await ranking(of: text, in: index, context: semanticContext).count) }
        print(
            String(
                format: "  %.2f  nDCG@10 %.3f  recall@20 %.3f  unrelated queries' results ", floor,
                evaluation.meanNormalizedDiscountedCumulativeGain, evaluation.meanRecall)
                + unrelatedCounts.map(String.init).joined(separator: " / "))
    }
    await index.attach(embedder: embedder)
}

/// Semantic and fused rankings computed here from exact cosine similarities, without the index:
/// the yardstick the index's own modes are compared with.
func referenceRows(set: RelevanceSet, embedder: any TextEmbedder, lexical: RelevanceEvaluation) async throws -> [RelevanceRow] {
    var itemVectors: [[Float]] = []
    var start = 0
    while start < set.items.count {
        let batch = set.items[start..<min(start + 32, set.items.count)]
        itemVectors += try embedder.embed(batch.map(\.embeddingText), role: .document)
        start += 32
    }
    let queryVectors = try embedder.embed(set.queries.map(\.text), role: .query)
    let identifiers = set.items.map(\.id)
    func cosineRanking(_ queryVector: [Float]) -> [(String, Float)] {
        let scored = zip(identifiers, itemVectors).map { identifier, vector in
            (identifier, zip(queryVector, vector).reduce(Float(0)) { $0 + $1.0 * $1.1 })
        }
        return scored.filter { $0.1 >= embedder.similarityFloor }.sorted { $0.1 > $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
    }
    let semanticRankings = Dictionary(uniqueKeysWithValues: zip(set.queries.map(\.id), queryVectors.map(cosineRanking)))
    let lexicalRankings = Dictionary(uniqueKeysWithValues: lexical.results.map { ($0.query.id, $0.ranking) })

    // Reciprocal rank fusion, k = 60, over the lexical top 20 and the semantic top 50.
    func reciprocalRankFusion(_ query: RelevanceQuery) -> [String] {
        var scores: [String: Double] = [:]
        for (rank, identifier) in (lexicalRankings[query.id] ?? []).enumerated() { scores[identifier, default: 0] += 1 / Double(60 + rank + 1) }
        for (rank, (identifier, _)) in (semanticRankings[query.id] ?? []).prefix(50).enumerated() {
            scores[identifier, default: 0] += 1 / Double(60 + rank + 1)
        }
        return scores.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.map(\.key)
    }
    // Weighted sum: 0.5 × (1 − (lexical rank − 1) / 20) + 0.5 × cosine, the lexical part 0 when not matched.
    func weightedSum(_ query: RelevanceQuery) -> [String] {
        var scores: [String: Double] = [:]
        for (rank, identifier) in (lexicalRankings[query.id] ?? []).enumerated() { scores[identifier, default: 0] += 0.5 * (1 - Double(rank) / 20) }
        for (identifier, cosine) in (semanticRankings[query.id] ?? []).prefix(50) { scores[identifier, default: 0] += 0.5 * Double(cosine) }
        return scores.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.map(\.key)
    }
    return [
        RelevanceRow(
            name: "semantic, exact cosine (reference)",
            evaluation: await RelevanceEvaluation(set: set) { query in (semanticRankings[query.id] ?? []).map(\.0) }),
        RelevanceRow(name: "hybrid, reference RRF k=60", evaluation: await RelevanceEvaluation(set: set) { reciprocalRankFusion($0) }),
        RelevanceRow(name: "hybrid, reference weighted sum", evaluation: await RelevanceEvaluation(set: set) { weightedSum($0) })
    ]
}

func printRelevanceTable(_ rows: [RelevanceRow], set: RelevanceSet) {
    func pad(_ text: String, _ width: Int) -> String {
        let columns = text.unicodeScalars.reduce(0) { $0 + (isWide($1) ? 2 : 1) }
        return columns >= width ? text : text + String(repeating: " ", count: width - columns)
    }
    let nameWidth = max(12, rows.map(\.name.count).max() ?? 0) + 2
    print("")
    print(pad("mode", nameWidth) + "nDCG@10  recall@20  queries with nDCG@10 = 0")
    for row in rows {
        print(
            pad(row.name, nameWidth)
                + String(
                    format: "%.3f    %.3f      %d", row.evaluation.meanNormalizedDiscountedCumulativeGain, row.evaluation.meanRecall,
                    row.evaluation.results.filter { $0.normalizedDiscountedCumulativeGain == 0 }.count))
    }

    print("")
    print("nDCG@10 by query kind and language (number of queries)")
    let groups: [(String, (RelevanceQuery) -> Bool)] =
        ["exact", "synonym", "paraphrase", "misspelling", "morphology", "crossLanguage"].map { kind in (kind, { $0.kinds.contains(kind) }) }
        + [("English", { $0.language == "en" }), ("Japanese", { $0.language == "ja" })]
    print(pad("", 20) + rows.map { pad($0.label, 11) }.joined())
    for (label, isIncluded) in groups {
        let count = set.queries.filter(isIncluded).count
        print(
            pad("\(label) (\(count))", 20)
                + rows.map { pad(String(format: "%.3f", $0.evaluation.filter(isIncluded).meanNormalizedDiscountedCumulativeGain), 11) }
                .joined())
    }

    guard let hybrid = rows.last(where: { $0.name.hasPrefix("hybrid") }) ?? rows.last else { return }
    let titles = Dictionary(uniqueKeysWithValues: set.items.map { ($0.id, $0.title) })
    print("")
    print(
        "the issue's queries: rank of the entry named in the issue per mode (\(rows.map(\.label).joined(separator: " / "))), then \(hybrid.label)'s top 3"
    )
    for (text, identifier) in issueQueries {
        guard let result = hybrid.evaluation.results.first(where: { $0.query.text == text }) else { continue }
        let ranks = rows.map { row in
            (row.evaluation.results.first { $0.query.text == text }?.ranking.firstIndex(of: identifier)).map { "\($0 + 1)" } ?? "-"
        }
        let top = result.ranking.prefix(3).map { "\(titles[$0] ?? $0) [\(result.query.judgements[$0] ?? 0)]" }
        print("  \(pad("\"\(text)\" → \(titles[identifier] ?? identifier)", 48)) \(ranks.joined(separator: " / "))  \(top.joined(separator: "; "))")
    }
    let failures = hybrid.evaluation.results.filter { $0.normalizedDiscountedCumulativeGain < 0.5 }
    print("")
    print("queries where \(hybrid.name) scores nDCG@10 < 0.5 (\(failures.count)): nDCG@10 per mode, then its top 3 with grades")
    for failure in failures {
        let perMode = rows.map { row in
            String(format: "%.2f", row.evaluation.results.first { $0.query.id == failure.query.id }?.normalizedDiscountedCumulativeGain ?? 0)
        }
        let top = failure.ranking.prefix(3).map { "\(titles[$0] ?? $0) [\(failure.query.judgements[$0] ?? 0)]" }
        print(
            "  \(pad("\"\(failure.query.text)\"", 28)) \(perMode.joined(separator: " / "))  \(top.isEmpty ? "(nothing)" : top.joined(separator: "; "))"
        )
    }
}

/// Whether a terminal shows the character in two columns (CJK, kana, full-width forms).
func isWide(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6: true
    default: false
    }
}
