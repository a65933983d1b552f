// `spotlight-bench semantic [ITEM_COUNT] [QUERY_COUNT]`: hybrid queries (BM25 fused with an int8
// vector scan and a float16 re-rank) against lexical ones on the same index, indexing with
// semantic search on against off, and the memory and disk each item's vector takes.
//
// The vectors are synthetic: each word has a fixed random direction and a text is the normalised
// sum of its words' directions, so texts sharing words are close, as real embeddings of related
// texts are. Embedding a text costs microseconds here; with all-MiniLM-L6-v2 it costs 5–10 ms per
// short text (see the `embeddings` benchmark), which query latencies below do not include.
//
//   swift run -c release spotlight-bench semantic 100000 500
//   swift run -c release spotlight-bench semantic 1000000 200
import EmbeddingKernels
import Foundation
import SeededRandom
import SpotlightKit
import Synchronization
import TextEmbedding

/// Word directions summed and normalised: deterministic, 384 dimensions like MiniLM.
struct SyntheticEmbedder: TextEmbedder {
    let identifier = "synthetic-words@1"
    let dimension = 384
    let similarityFloor: Float = 0.3

    func embed(_ texts: [String], role: EmbeddingRole) throws -> [[Float]] {
        texts.map { text in
            var vector = [Float](repeating: 0, count: dimension)
            for word in text.lowercased().split(whereSeparator: { !$0.isLetter }) {
                var state = Self.stableHash(word)
                for i in 0..<dimension {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    vector[i] += Float(Int64(bitPattern: state) >> 40) / Float(1 << 23)
                }
            }
            let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return norm > 0 ? vector.map { $0 / norm } : vector
        }
    }

    static func stableHash(_ word: Substring) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in word.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// Resident memory of the process, in bytes.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

func fileBytes(_ path: String) -> Int {
    let sizes = ["", "-wal"].map { (try? FileManager.default.attributesOfItem(atPath: path + $0)[.size] as? Int) ?? 0 }
    return sizes.reduce(0, +)
}

func runSemanticBenchmark(itemCount: Int, queryCount: Int) async throws {
    var random = SeededRandomNumberGenerator(seed: 7)
    let syllables = ["ka", "lo", "mi", "ra", "ne", "to", "su", "vi", "da", "pe", "go", "ri", "sa", "lu", "ca", "zo", "bri"]
    var vocabulary: [String] = []
    var seen: Set<String> = []
    while vocabulary.count < 20_000 {
        let word = (0..<Int.random(in: 2...4, using: &random)).map { _ in syllables.randomElement(using: &random)! }.joined()
        if seen.insert(word).inserted { vocabulary.append(word) }
    }
    func word() -> String {
        let u = Double.random(in: 0..<1, using: &random)
        return vocabulary[min(Int(pow(u, 3) * Double(vocabulary.count)), vocabulary.count - 1)]
    }
    func sentence(_ range: ClosedRange<Int>) -> String {
        (0..<Int.random(in: range, using: &random)).map { _ in word() }.joined(separator: " ")
    }
    let items: [SearchableItem] = (0..<itemCount).map { offset in
        var set = SearchableItemAttributeSet(contentType: .plainText)
        set.title = sentence(2...5).capitalized
        set.textContent = sentence(8...20)
        set.rankingHint = offset % 101
        return SearchableItem(uniqueIdentifier: "item-\(offset)", attributeSet: set)
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotlight-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let clock = ContinuousClock()
    let embedder = SyntheticEmbedder()
    print("semantic search, \(itemCount) items (synthetic 384-d vectors), \(queryCount) queries")

    // Indexing: semantic off, then the same items with semantic on (written, then embedded in batches).
    func index(_ name: String, semantic: Bool) async throws -> (seconds: Double, cpu: Double, path: String, index: SearchableIndex) {
        let path = directory.appendingPathComponent(name + ".sqlite").path
        let index = try SearchableIndex(name: "bench", databasePath: path)
        if semantic { try await index.setSemanticSearch(enabled: true, embedder: embedder) }
        let cpu = processCPUSeconds()
        let time = try await clock.measure {
            var start = 0
            while start < items.count {
                try await index.indexSearchableItems(Array(items[start..<min(start + 5_000, items.count)]))
                start += 5_000
            }
            if semantic {
                await index.waitForSemanticIndexing()
                try await index.embedPendingItems(batchSize: 256)
            }
        }
        return (seconds(time), processCPUSeconds() - cpu, path, index)
    }
    let off = try await index("off", semantic: false)
    let on = try await index("on", semantic: true)
    let embedCPU = try await clock.measure { _ = try embedder.embed(items.prefix(10_000).map { $0.attributeSet.title ?? "" }, role: .document) }
    print(
        String(
            format: "indexing: semantic off %.1f s (%.0f items/s, CPU %.1f s); on %.1f s (%.0f items/s, CPU %.1f s): %.2f× the time",
            off.seconds, Double(itemCount) / off.seconds, off.cpu, on.seconds, Double(itemCount) / on.seconds, on.cpu,
            on.seconds / off.seconds))
    print(
        String(
            format: "  of which the synthetic embedder: about %.1f s (%.1f µs per text, measured apart)",
            seconds(embedCPU) / 10_000 * Double(itemCount), seconds(embedCPU) / 10_000 * 1e6))
    print(
        String(
            format: "disk: %.0f bytes per item with semantic off, %.0f with it on (+%.0f for the int8 and float16 vectors)",
            Double(fileBytes(off.path)) / Double(itemCount), Double(fileBytes(on.path)) / Double(itemCount),
            Double(fileBytes(on.path) - fileBytes(off.path)) / Double(itemCount)))

    // Memory: the first hybrid query reads the vectors into the int8 matrix.
    let queries = (0..<queryCount).map { _ in sentence(1...3) }
    var context = UserQueryContext(maxResultCount: 20)
    let before = residentBytes()
    let firstQuery = try await clock.measure {
        for try await _ in UserQuery(userQueryString: queries[0], context: context, index: on.index).responses {}
    }
    print(
        String(
            format: "first hybrid query (reads the vectors): %.0f ms; resident memory +%.0f bytes per item (int8 row 384 B + scale + id)",
            seconds(firstQuery) * 1000, Double(residentBytes() - before) / Double(itemCount)))

    // Wall time, and the CPU time of the whole process (both scan threads), which a busy machine
    // disturbs less.
    func latencies(_ retrieval: RetrievalMode) async throws -> (wall: [Double], cpu: [Double]) {
        context.retrieval = retrieval
        var times: [Double] = []
        var cpuTimes: [Double] = []
        for query in queries {
            let cpu = processCPUSeconds()
            let time = try await clock.measure {
                for try await _ in UserQuery(userQueryString: query, context: context, index: on.index).responses {}
            }
            cpuTimes.append((processCPUSeconds() - cpu) * 1000)
            times.append(seconds(time) * 1000)
        }
        return (times.sorted(), cpuTimes.sorted())
    }
    let lexical = try await latencies(.lexical)
    let hybrid = try await latencies(.hybrid)
    let semanticOnly = try await latencies(.semantic)
    VectorMatrix.prefilterEnabled.store(false, ordering: .relaxed)
    let hybridExact = try await latencies(.hybrid)
    VectorMatrix.prefilterEnabled.store(true, ordering: .relaxed)
    let hybridLabel = itemCount >= VectorMatrix.prefilterThreshold ? "hybrid (sign bits, then int8)" : "hybrid (int8 scan)"
    for (label, times) in [
        ("lexical", lexical), (hybridLabel, hybrid), ("hybrid (exact int8 scan)", hybridExact), ("semantic", semanticOnly)
    ] {
        print(
            String(
                format: "%@ query (20 results): wall p50 %.2f ms, p99 %.2f ms; CPU p50 %.2f ms, p99 %.2f ms; CPU p50 %.2f× lexical",
                label, percentile(times.wall, 0.5), percentile(times.wall, 0.99), percentile(times.cpu, 0.5),
                percentile(times.cpu, 0.99), percentile(times.cpu, 0.5) / max(0.001, percentile(lexical.cpu, 0.5))))
    }
    let prepare = try await clock.measure { try await on.index.prepareSemanticSearch() }
    print(String(format: "checking for pending items before a search (nothing pending): %.1f ms", seconds(prepare) * 1000))

    if let folder = ProcessInfo.processInfo.environment["SHORTCUTS_TEST_MODEL_DIR"], !folder.isEmpty {
        try await measureRealModel(folder: folder, items: Array(items.prefix(1_000)), queries: Array(queries.prefix(50)), in: directory)
    } else {
        print("all-MiniLM-L6-v2: not measured (set SHORTCUTS_TEST_MODEL_DIR to a folder with its files)")
    }
}

/// Indexing with the real model on against off, and hybrid queries including the query's embedding.
func measureRealModel(folder: String, items: [SearchableItem], queries: [String], in directory: URL) async throws {
    let clock = ContinuousClock()
    let loadStart = clock.now
    let model = try TransformerEmbedder(
        directory: URL(fileURLWithPath: folder, isDirectory: true), identifier: "all-MiniLM-L6-v2@1110a243", similarityFloor: 0.2)
    let load = seconds(clock.now - loadStart)
    var results: [(label: String, seconds: Double, cpu: Double)] = []
    var semanticIndex: SearchableIndex?
    for semantic in [false, true] {
        let index = try SearchableIndex(name: "model", databasePath: directory.appendingPathComponent("model-\(semantic).sqlite").path)
        let cpu = processCPUSeconds()
        let time = try await clock.measure {
            try await index.indexSearchableItems(items)
            if semantic {
                try await index.setSemanticSearch(enabled: true, embedder: nil)
                await index.attach(embedder: model)
                await index.waitForSemanticIndexing()
                try await index.embedPendingItems(batchSize: 32)
            }
        }
        results.append((semantic ? "on" : "off", seconds(time), processCPUSeconds() - cpu))
        if semantic { semanticIndex = index }
    }
    print(
        String(
            format: "all-MiniLM-L6-v2 (loaded in %.0f ms), %d items (title + 8–20 words): semantic off %.2f s, on %.2f s "
                + "(%.0f items/s, CPU %.1f ms per item)",
            load * 1000, items.count, results[0].seconds, results[1].seconds, Double(items.count) / results[1].seconds,
            (results[1].cpu - results[0].cpu) / Double(items.count) * 1000))
    guard let index = semanticIndex else { return }
    var context = UserQueryContext(maxResultCount: 20)
    var times: [Double] = []
    for retrieval in [RetrievalMode.lexical, .hybrid] {
        context.retrieval = retrieval
        var latencies: [Double] = []
        for query in queries {
            let time = try await clock.measure {
                for try await _ in UserQuery(userQueryString: query, context: context, index: index).responses {}
            }
            latencies.append(seconds(time) * 1000)
        }
        latencies.sort()
        times.append(percentile(latencies, 0.5))
        print(
            String(
                format: "  %@ query with the model, embedding included: wall p50 %.2f ms, p99 %.2f ms", retrieval.rawValue,
                percentile(latencies, 0.5), percentile(latencies, 0.99)))
    }
}

/// The int8 scan alone over `rows` random 384-d vectors: what a hybrid query adds at that scale
/// besides fusing, on one thread and split across two as queries do from 32,768 items.
func runScanBenchmark(rows: Int, queryCount: Int) {
    var random = SeededRandomNumberGenerator(seed: 11)
    let dimension = 384
    let matrix = (0..<(rows * dimension)).map { _ in Int8.random(in: -127...127, using: &random) }
    let scales = [Float](repeating: 1 / 127, count: rows)
    var scores = [Float](repeating: 0, count: rows)
    for threads in [1, 2] {
        var cpuTimes: [Double] = []
        var wallTimes: [Double] = []
        for _ in 0..<queryCount {
            let query = (0..<dimension).map { _ in Int8.random(in: -127...127, using: &random) }
            let cpu = processCPUSeconds()
            let start = ContinuousClock.now
            matrix.withUnsafeBufferPointer { matrix in
                scales.withUnsafeBufferPointer { scales in
                    query.withUnsafeBufferPointer { query in
                        scores.withUnsafeMutableBufferPointer { scores in
                            nonisolated(unsafe) let pointers = (matrix.baseAddress!, scales.baseAddress!, query.baseAddress!, scores.baseAddress!)
                            let part = (rows + threads - 1) / threads
                            DispatchQueue.concurrentPerform(iterations: threads) { index in
                                let first = index * part
                                let count = min(rows, first + part) - first
                                ek_int8_scan(
                                    pointers.0 + first * dimension, pointers.1 + first, Int32(count), Int32(dimension),
                                    pointers.2, 1 / 127, pointers.3 + first)
                            }
                        }
                    }
                }
            }
            var best = -Float.infinity
            for score in scores where score > best { best = score }
            wallTimes.append(seconds(ContinuousClock.now - start) * 1000)
            cpuTimes.append((processCPUSeconds() - cpu) * 1000)
        }
        wallTimes.sort()
        cpuTimes.sort()
        print(
            String(
                format: "int8 scan of %d vectors, %d thread(s): wall p50 %.2f ms, p99 %.2f ms; CPU p50 %.2f ms (%@)", rows, threads,
                percentile(wallTimes, 0.5), percentile(wallTimes, 0.99), percentile(cpuTimes, 0.5), String(cString: ek_variant())))
    }
}

/// Clustered synthetic unit vectors (384-d): 4,000 subtopics in 200 topics, each vector its
/// topic and subtopic directions plus its own noise. Row `r` is the same on every call.
struct ClusteredVectors {
    let dimension = 384
    var directions: [[Float]]

    init() {
        var random = SeededRandomNumberGenerator(seed: 23)
        directions = (0..<4_200).map { _ in (0..<384).map { _ in Float.random(in: -1...1, using: &random) } }
    }

    func vector(_ row: Int, seed: UInt64 = 0) -> [Float] {
        var random = SeededRandomNumberGenerator(seed: UInt64(row) &* 0x9E37_79B9 &+ seed)
        let subtopic = Int(random.next() % 4_000)
        let topic = directions[4_000 + subtopic % 200]
        let sub = directions[subtopic]
        var vector = [Float](repeating: 0, count: dimension)
        for i in 0..<dimension {
            vector[i] = 0.5 * topic[i] + 0.6 * sub[i] + 0.8 * Float.random(in: -1...1, using: &random)
        }
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return vector.map { $0 / norm }
    }
}

/// The two query paths of `VectorMatrix` over `rows` clustered vectors: the exact int8 scan and
/// the sign-bit pass before it, each followed by an exact re-rank of 200 candidates, and the
/// recall@10 of the second against the first.
func runPrefilterBenchmark(rows: Int, queryCount: Int) {
    let source = ClusteredVectors()
    var matrix = VectorMatrix(model: "clustered", dimension: source.dimension)
    for row in 0..<rows { matrix.append(itemId: Int64(row), vector: source.vector(row)) }
    let queries = (0..<queryCount).map { source.vector($0 * 7_919 % rows, seed: 1) }
    func reranked(_ candidates: [(itemId: Int64, score: Float)], _ query: [Float]) -> [Int64] {
        let exact = candidates.map { candidate in
            let vector = source.vector(Int(candidate.itemId))
            return (candidate.itemId, zip(vector, query).reduce(Float(0)) { $0 + $1.0 * $1.1 })
        }
        return exact.sorted { $0.1 > $1.1 }.prefix(10).map(\.0)
    }
    var reference: [[Int64]] = []
    let counts = [nil, 62_500, 125_000].map { $0.map { min($0, rows) } }
    for (pass, count) in ([Int?.none] + counts).enumerated() {
        var wallTimes: [Double] = []
        var recall = 0.0
        for (index, query) in queries.enumerated() {
            let start = ContinuousClock.now
            let candidates = matrix.candidates(
                for: query, limit: 200, prefilter: pass > 0, prefilterCount: count ?? nil)
            wallTimes.append(seconds(ContinuousClock.now - start) * 1000)
            let top = reranked(candidates, query)
            if pass == 0 {
                reference.append(top)
            } else {
                recall += Double(Set(top).intersection(reference[index]).count) / 10
            }
        }
        wallTimes.sort()
        let name =
            pass == 0
            ? "exact int8 scan"
            : "sign bits, \(count ?? VectorMatrix.prefilterCandidateCount(rows: rows)) candidates, then int8"
        print(
            String(
                format: "%@ of %d clustered vectors, 2 threads: wall p50 %.2f ms, p99 %.2f ms%@", name, rows,
                percentile(wallTimes, 0.5), percentile(wallTimes, 0.99),
                pass == 0 ? "" : String(format: "; recall@10 after re-rank %.4f", recall / Double(queries.count))))
    }
}

/// `spotlight-bench scan-model TEXTS [QUERIES]`: the recall@10 of the sign-bit pass on real
/// all-MiniLM-L6-v2 vectors (from `SHORTCUTS_TEST_MODEL_DIR`) of the lines of `TEXTS`, with the
/// lines of `QUERIES` (or the last 100 texts) as queries, for several numbers of rows kept, each
/// followed by the int8 scan of those rows and an exact re-rank of 200 candidates.
func runPrefilterModelBenchmark(textsPath: String, queriesPath: String?) throws {
    guard let folder = ProcessInfo.processInfo.environment["SHORTCUTS_TEST_MODEL_DIR"], !folder.isEmpty else {
        print("all-MiniLM-L6-v2: not measured (set SHORTCUTS_TEST_MODEL_DIR to a folder with its files)")
        return
    }
    let model = try TransformerEmbedder(
        directory: URL(fileURLWithPath: folder, isDirectory: true), identifier: "all-MiniLM-L6-v2@1110a243", similarityFloor: 0.2)
    func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }
    var texts = try lines(textsPath)
    let queryTexts = try queriesPath.map(lines) ?? Array(texts.suffix(100))
    if queriesPath == nil { texts.removeLast(queryTexts.count) }
    let start = ContinuousClock.now
    var vectors: [[Float]] = []
    for batch in stride(from: 0, to: texts.count, by: 64) {
        vectors += try model.embed(Array(texts[batch..<min(texts.count, batch + 64)]), role: .document)
    }
    let queries = try model.embed(queryTexts, role: .query)
    print(
        String(
            format: "all-MiniLM-L6-v2: %d texts and %d queries embedded in %.0f s", texts.count, queries.count,
            seconds(ContinuousClock.now - start)))
    var matrix = VectorMatrix(model: model.identifier, dimension: model.dimension)
    for (row, vector) in vectors.enumerated() { matrix.append(itemId: Int64(row), vector: vector) }
    func reranked(_ candidates: [(itemId: Int64, score: Float)], _ query: [Float]) -> [Int64] {
        candidates.map { ($0.itemId, zip(vectors[Int($0.itemId)], query).reduce(Float(0)) { $0 + $1.0 * $1.1 }) }
            .sorted { $0.1 > $1.1 }.prefix(10).map(\.0)
    }
    let reference = queries.map { reranked(matrix.candidates(for: $0, limit: 200, prefilter: false), $0) }
    for divisor in [64, 32, 16, 12, 10, 8] {
        let kept = max(10, texts.count / divisor)
        var recall = 0.0
        for (index, query) in queries.enumerated() {
            let top = reranked(matrix.candidates(for: query, limit: 200, prefilter: true, prefilterCount: kept), query)
            recall += Double(Set(top).intersection(reference[index]).count) / 10
        }
        print(
            String(
                format: "sign bits keeping 1/%d of %d rows (%d), then int8 and exact re-rank: recall@10 %.4f", divisor,
                texts.count, kept, recall / Double(queries.count)))
    }
}
