// Measures, on a synthetic corpus, indexing throughput against raw FTS5 inserts
// of the same text through the same SQLite, user-query and query-string
// latency, and the lag from a store write to its index-did-update event.
//
// Usage: spotlight-bench [ITEM_COUNT] [QUERY_COUNT]
//        spotlight-bench relevance [--set DIR] [--model DIR]   (see RelevanceBenchmark.swift)
//        spotlight-bench semantic [ITEM_COUNT] [QUERY_COUNT]   (SemanticBenchmark.swift)
//   swift run -c release spotlight-bench 100000 1000
//   swift run -c release spotlight-bench 1000000 1000   # about ten minutes
import Foundation
import GRDB
import SeededRandom
import SpotlightKit

/// Prints a line at once, also when the output is a file.
func print(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// CPU time of the whole process (every thread), in seconds: steadier than wall time on a busy machine.
func processCPUSeconds() -> Double {
    var usage = rusage()
    #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

struct Text {
    var title: String
    var displayName: String
    var keywords: [String]
    var textContent: String
    var contentDescription: String
}

func run() async throws {
    let arguments = CommandLine.arguments
    if arguments.count > 1, arguments[1] == "scan" {
        let numbers = arguments.dropFirst(2).compactMap { Int($0) }
        runScanBenchmark(rows: numbers.first ?? 1_000_000, queryCount: numbers.dropFirst().first ?? 50)
        runPrefilterBenchmark(rows: numbers.first ?? 1_000_000, queryCount: numbers.dropFirst().first ?? 50)
        return
    }
    if arguments.count > 2, arguments[1] == "scan-model" {
        try runPrefilterModelBenchmark(textsPath: arguments[2], queriesPath: arguments.count > 3 ? arguments[3] : nil)
        return
    }
    if arguments.count > 1, arguments[1] == "semantic" {
        let numbers = arguments.dropFirst(2).compactMap { Int($0) }
        try await runSemanticBenchmark(itemCount: numbers.first ?? 100_000, queryCount: numbers.dropFirst().first ?? 500)
        return
    }
    let itemCount = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
    let queryCount = arguments.count > 2 ? Int(arguments[2]) ?? 1_000 : 1_000
    var random = SeededRandomNumberGenerator(seed: 42)

    // A vocabulary of pronounceable words, drawn with a Zipf-like skew.
    let syllables = ["ka", "lo", "mi", "ra", "ne", "to", "su", "vi", "da", "pe", "go", "ri", "sa", "lu", "ne", "ca", "fé", "zo", "bri", "dge"]
    var vocabulary: [String] = []
    var seen: Set<String> = []
    while vocabulary.count < 20_000 {
        let length = Int.random(in: 2...4, using: &random)
        let word = (0..<length).map { _ in syllables.randomElement(using: &random)! }.joined()
        if seen.insert(word).inserted { vocabulary.append(word) }
    }
    func word() -> String {
        let u = Double.random(in: 0..<1, using: &random)
        let index = Int(pow(u, 3) * Double(vocabulary.count))
        return vocabulary[min(index, vocabulary.count - 1)]
    }
    func sentence(_ range: ClosedRange<Int>) -> String {
        (0..<Int.random(in: range, using: &random)).map { _ in word() }.joined(separator: " ")
    }

    let texts: [Text] = (0..<itemCount).map { _ in
        Text(
            title: sentence(2...5).capitalized, displayName: sentence(1...3).capitalized,
            keywords: (0..<Int.random(in: 1...3, using: &random)).map { _ in sentence(1...3) },
            textContent: sentence(20...60), contentDescription: sentence(5...12))
    }
    let now = Date()
    let items: [SearchableItem] = texts.enumerated().map { offset, text in
        var set = SearchableItemAttributeSet(contentType: offset % 3 == 0 ? .jpeg : .plainText)
        set.title = text.title
        set.displayName = text.displayName
        set.keywords = text.keywords
        set.textContent = text.textContent
        set.contentDescription = text.contentDescription
        set.rankingHint = offset % 101
        if offset % 4 == 0 { set.lastUsedDate = now.addingTimeInterval(-Double(offset % 90) * 86_400) }
        return SearchableItem(uniqueIdentifier: "item-\(offset)", domainIdentifier: "bench.d\(offset % 10)", attributeSet: set)
    }

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotlight-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let keep = ProcessInfo.processInfo.environment["SPOTLIGHT_BENCH_KEEP"] != nil
    defer { if !keep { try? FileManager.default.removeItem(at: directory) } else { print("kept \(directory.path)") } }
    let chunk = 5_000
    let clock = ContinuousClock()

    // 1. SearchableIndex, and 2. raw FTS5 inserts of the same text through the same SQLite,
    // alternated twice on fresh files; the faster run of each counts.
    func indexRun(_ attempt: Int) async throws -> (Duration, Double, SearchableIndex) {
        let index = try SearchableIndex(name: "bench", databasePath: directory.appendingPathComponent("index\(attempt).sqlite").path)
        let cpuStart = processCPUSeconds()
        let time = try await clock.measure {
            var start = 0
            while start < items.count {
                try await index.indexSearchableItems(Array(items[start..<min(start + chunk, items.count)]))
                start += chunk
            }
        }
        return (time, processCPUSeconds() - cpuStart, index)
    }
    func rawRun(_ attempt: Int) async throws -> (Duration, Double) {
        let raw = try DatabasePool(path: directory.appendingPathComponent("raw\(attempt).sqlite").path)
        try await raw.write { db in
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE raw USING fts5(title, displayName, keywords, textContent, contentDescription,
                        tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4')
                    """)
        }
        let cpuStart = processCPUSeconds()
        let time = try await clock.measure {
            var start = 0
            while start < texts.count {
                let slice = Array(texts[start..<min(start + chunk, texts.count)])
                try await raw.write { db in
                    let statement = try db.cachedStatement(
                        sql: "INSERT INTO raw (title, displayName, keywords, textContent, contentDescription) VALUES (?, ?, ?, ?, ?)")
                    for text in slice {
                        try statement.execute(arguments: [
                            text.title, text.displayName, text.keywords.joined(separator: "\u{1F}"), text.textContent, text.contentDescription
                        ])
                    }
                }
                start += chunk
            }
        }
        return (time, processCPUSeconds() - cpuStart)
    }

    // Large corpora are indexed once each way; smaller ones twice, alternating, the faster run counting.
    let attempts = itemCount > 200_000 ? 1 : 2
    var indexTimes: [Duration] = []
    var rawTimes: [Duration] = []
    var indexCPU: [Double] = []
    var rawCPU: [Double] = []
    var built: SearchableIndex?
    for attempt in 1...attempts {
        let (rawTime, rawSeconds) = try await rawRun(attempt)
        rawTimes.append(rawTime)
        rawCPU.append(rawSeconds)
        let (time, cpu, index) = try await indexRun(attempt)
        indexTimes.append(time)
        indexCPU.append(cpu)
        built = index
    }
    let index = built!
    let indexTime = seconds(indexTimes.min()!)
    let rawTime = seconds(rawTimes.min()!)
    let indexCPUTime = indexCPU.min()!
    let rawCPUTime = rawCPU.min()!
    print("items: \(itemCount)")
    print(
        "runs (wall): index " + indexTimes.map { String(format: "%.2f s", seconds($0)) }.joined(separator: " / ")
            + ", raw " + rawTimes.map { String(format: "%.2f s", seconds($0)) }.joined(separator: " / "))
    print(
        String(
            format: "SearchableIndex.indexSearchableItems: %.2f s wall, %.2f s CPU (%.0f items/s wall, %.0f items/CPU-s)",
            indexTime, indexCPUTime, Double(itemCount) / indexTime, Double(itemCount) / indexCPUTime))
    print(
        String(
            format: "raw FTS5 INSERT:                     %.2f s wall, %.2f s CPU (%.0f rows/s wall, %.0f rows/CPU-s)",
            rawTime, rawCPUTime, Double(itemCount) / rawTime, Double(itemCount) / rawCPUTime))
    print(
        String(
            format: "throughput ratio (index / raw FTS5): %.2f× wall, %.2f× CPU",
            rawTime / indexTime, rawCPUTime / indexCPUTime))

    // 3. User-query latency: one or two words, the last one a prefix, as typed.
    func userQueries() -> [String] {
        (0..<queryCount).map { _ in
            let words = (0..<Int.random(in: 1...2, using: &random)).map { _ in word() }
            var last = words.last!
            let keep = Int.random(in: 3...max(3, last.count), using: &random)
            last = String(last.prefix(keep))
            return (words.dropLast() + [last]).joined(separator: " ")
        }
    }
    func measureUserQueries(_ label: String, context: UserQueryContext) async throws {
        var latencies: [Double] = []
        var cpuTimes: [Double] = []
        var resultTotal = 0
        for text in userQueries() {
            let cpuStart = processCPUSeconds()
            let elapsed = try await clock.measure {
                for try await response in UserQuery(userQueryString: text, context: context, index: index).responses {
                    if case .item = response { resultTotal += 1 }
                }
            }
            cpuTimes.append((processCPUSeconds() - cpuStart) * 1000)
            latencies.append(seconds(elapsed) * 1000)
        }
        latencies.sort()
        cpuTimes.sort()
        print(
            String(
                format: "%@: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms wall; p50 %.2f ms, p99 %.2f ms CPU (mean results %.1f)",
                label, percentile(latencies, 0.5), percentile(latencies, 0.9), percentile(latencies, 0.99),
                latencies.last!, percentile(cpuTimes, 0.5), percentile(cpuTimes, 0.99),
                Double(resultTotal) / Double(latencies.count)))
    }
    if queryCount == 0 { return }
    // Warm up the page cache and statement caches.
    for text in userQueries().prefix(50) {
        for try await _ in UserQuery(userQueryString: text, context: UserQueryContext(maxResultCount: 20), index: index).responses {}
    }
    try await measureUserQueries(
        "user query, top 20",
        context: UserQueryContext(fetchAttributes: ["title", "displayName"], enableRankedResults: true, maxResultCount: 20, maxRankedResultCount: 5))
    try await measureUserQueries(
        "user query, top 20 + 4 suggestions",
        context: UserQueryContext(
            fetchAttributes: ["title", "displayName"], enableRankedResults: true, maxResultCount: 20, maxRankedResultCount: 5, maxSuggestionCount: 4))
    try await measureUserQueries(
        "user query, top 20 + filter contentType image",
        context: UserQueryContext(fetchAttributes: ["title"], filterQueries: [#"contentType == "public.image""#], maxResultCount: 20))

    // 4. Query-string searches, each run to the end.
    let searches = [
        #"keywords == "kalo*"cwdt"#,
        #"title == "sa*"cd && rankingHint >= 90"#,
        #"textContent == "*mira*"c"#,
        #"contentType == "public.image" && lastUsedDate >= $time.today(-7)"#,
        #"rankingHint == 42"#
    ]
    for queryString in searches {
        var times: [Double] = []
        var found = 0
        for _ in 0..<(itemCount > 200_000 ? 2 : 5) {
            found = 0
            let elapsed = try await clock.measure {
                for try await _ in SearchQuery(queryString: queryString, attributes: ["title"], index: index).results { found += 1 }
            }
            times.append(seconds(elapsed) * 1000)
        }
        times.sort()
        print(
            String(
                format: "query string %@: median %.1f ms, min %.1f ms (%d items)",
                queryString, percentile(times, 0.5), times[0], found))
    }

    // 5. Lag from a store write to the delegate's index-did-update event.
    try await measureDelegateLag(directory: directory, vocabulary: vocabulary)
}

/// Writes notes to a GRDB store one at a time and times each until its index update arrives.
func measureDelegateLag(directory: URL, vocabulary: [String]) async throws {
    let clock = ContinuousClock()
    var random = SeededRandomNumberGenerator(seed: 7)
    func note() -> String { (0..<12).map { _ in vocabulary.randomElement(using: &random)! }.joined(separator: " ") }
    let store = try DatabasePool(path: directory.appendingPathComponent("store.sqlite").path)
    try await store.write { db in
        try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL)")
    }
    let initial = (0..<10_000).map { _ in (note(), note()) }
    try await store.write { db in
        for (title, body) in initial {
            try db.execute(sql: "INSERT INTO note (title, body) VALUES (?, ?)", arguments: [title, body])
        }
    }
    let delegate = try SpotlightDelegate(
        forStoreWith: store,
        entities: [
            SpotlightEntity(table: "note", indexedColumns: ["body"], displayNameColumn: "title")
        ])
    let updates = delegate.indexUpdates()
    try delegate.startIndexing()
    try await delegate.waitUntilIndexed()
    var iterator = updates.makeAsyncIterator()
    var lags: [Double] = []
    for step in 0..<300 {
        let (title, body) = (note(), note())
        let start = clock.now
        // The history entry the write records; its update event carries a token at least this large.
        let change: Int64 = try await store.write { db in
            if step % 3 == 2 {
                try db.execute(sql: "UPDATE note SET body = ? WHERE id = ?", arguments: [body, step + 1])
            } else {
                try db.execute(sql: "INSERT INTO note (title, body) VALUES (?, ?)", arguments: [title, body])
            }
            return try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'spotlightHistory'") ?? 0
        }
        while let update = await iterator.next(), update.historyToken < change {}
        lags.append(seconds(clock.now - start) * 1000)
    }
    delegate.stopIndexing()
    lags.sort()
    print(
        String(
            format: "store write → index-did-update (SpotlightDelegate, %d writes): p50 %.2f ms, p99 %.2f ms, max %.2f ms",
            lags.count, percentile(lags, 0.5), percentile(lags, 0.99), lags.last!))
}

if CommandLine.arguments.dropFirst().first == "relevance" {
    try await runRelevanceBenchmark(arguments: Array(CommandLine.arguments.dropFirst(2)))
} else {
    try await run()
}
