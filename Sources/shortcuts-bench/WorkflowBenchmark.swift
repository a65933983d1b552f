import Foundation
import GRDB
import IntentKit
import LibraryApp
import WorkflowKit

/// An intent that does almost nothing, to measure the cost of a workflow step.
struct Increment: AppIntent {
    static let title: LocalizedStringResource = "Increment"
    @Parameter(title: "Value") var value: Int

    func perform() async throws -> some IntentResult & ReturnsValue<Int> {
        .result(value: value + 1)
    }
}

/// Why a benchmark could not report a figure: its work gave a wrong result.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Measures the workflow engine against the same work written directly in Swift.
enum WorkflowBenchmark {
    static func run(arguments: [String]) async throws {
        let iterations = arguments.first.flatMap(Int.init) ?? 1_000_000
        let parts = Set(arguments.dropFirst())
        if parts.isEmpty || parts.contains("repeat") { try await repeatLoop(iterations: iterations) }
        if parts.isEmpty || parts.contains("find") { try await find(books: 100_000, queries: 2_000) }
        if parts.isEmpty || parts.contains("validate") { try loadAndValidate(steps: 1_000) }
        if parts.isEmpty || parts.contains("while") { try await whileLoop(iterations: 1_000, rounds: 20) }
        if parts.isEmpty || parts.contains("parallel") { try await parallelWaits(branches: 8, milliseconds: 100) }
        if parts.isEmpty || parts.contains("expressions") { try expressions(calls: min(iterations, 200_000)) }
    }

    /// (e) A `parallel` step of branches that each wait, against the sum of the waits that
    /// running them one after another would take.
    static func parallelWaits(branches: Int, milliseconds: Int) async throws {
        let branchLines = String(repeating: "      - wait: \(milliseconds)ms\n", count: branches)
        let workflow = try WorkflowLoader.load(text: "steps:\n  - parallel:\n" + branchLines, fileName: "bench-parallel.yaml")
        let runner = WorkflowRunner(catalog: IntentCatalog(apps: []), secrets: nil)
        _ = try await runner.run(workflow)
        let rounds = 10
        let elapsed = try await ContinuousClock().measure {
            for _ in 0..<rounds { _ = try await runner.run(workflow) }
        }
        let perRun = seconds(elapsed) / Double(rounds)
        let sequential = Double(branches * milliseconds) / 1000
        print("(e) parallel with \(branches) branches of wait: \(milliseconds)ms, \(rounds) runs")
        print(String(format: "    parallel: %.1f ms per run (goal ≈ %d ms)", perRun * 1000, milliseconds))
        print(String(format: "    sequential sum of the waits: %.0f ms", sequential * 1000))
        print(String(format: "    ratio parallel / sequential: %.3f (goal ≈ %.3f)", perRun / sequential, 1 / Double(branches)))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// (a) A `repeat` of a trivial `perform` step vs. the same loop calling `perform()` directly.
    static func repeatLoop(iterations: Int) async throws {
        let app = IntentApp(name: "Bench", intents: [Increment.self])
        let catalog = IntentCatalog(apps: [app])
        let text = """
            steps:
              - repeat: { count: \(iterations) }
                steps:
                  - perform: Bench.Increment
                    with: { value: "${index}" }
            """
        let workflow = try WorkflowLoader.load(text: text, fileName: "bench-repeat.yaml")
        let clock = ContinuousClock()

        var checksum = 0
        let direct = try await clock.measure {
            for index in 1...iterations {
                let intent = Increment()
                intent.value = index
                if case .int(let value)? = try await intent.perform().resultParts.value { checksum &+= value }
            }
        }
        let runner = WorkflowRunner(catalog: catalog)
        var result: WorkflowRunResult?
        let engine = try await clock.measure {
            result = try await runner.run(workflow)
        }
        let steps = (result?.steps.count ?? 0)
        let stepsPerSecond = Double(iterations) / seconds(engine)
        print("(a) repeat of a trivial perform step, \(iterations) iterations (\(steps) traced steps)")
        print(String(format: "    workflow: %.2f s = %.0f steps/s (goal ≥ 1,000,000)", seconds(engine), stepsPerSecond))
        print(String(format: "    direct perform() loop: %.3f s (checksum %d)", seconds(direct), checksum))
        print(String(format: "    ratio workflow / direct: %.1f× (goal ≤ 3×)", seconds(engine) / seconds(direct)))
    }

    /// (d) A 1,000-iteration `repeat: { while: … }` vs. a `repeat: { count: 1000 }` with the
    /// same steps, per iteration, taking turns for `rounds` rounds and keeping each one's best.
    static func whileLoop(iterations: Int, rounds: Int) async throws {
        let catalog = IntentCatalog(apps: [IntentApp(name: "Bench", intents: [Increment.self])])
        let body = """
                steps:
                  - perform: Bench.Increment
                    with: { value: "${n}" }
                    id: next
                  - set: n
                    to: ${next}
            output: ${n}
            """
        let whileText = """
            steps:
              - set: n
                to: 0
              - repeat: { while: { value: "${n}", lessThan: \(iterations) }, maxIterations: \(iterations) }
            \(body)
            """
        let countText = """
            steps:
              - set: n
                to: 0
              - repeat: { count: \(iterations) }
            \(body)
            """
        let whileWorkflow = try WorkflowLoader.load(text: whileText, fileName: "bench-while.yaml")
        let countWorkflow = try WorkflowLoader.load(text: countText, fileName: "bench-count.yaml")
        let runner = WorkflowRunner(catalog: catalog)
        let clock = ContinuousClock()
        var bestWhile = Duration.seconds(1_000)
        var bestCount = Duration.seconds(1_000)
        var outputs: [IntentValue] = []
        for _ in 0..<rounds {
            var output = IntentValue.null
            bestWhile = min(bestWhile, try await clock.measure { output = try await runner.run(whileWorkflow).output })
            outputs.append(output)
            bestCount = min(bestCount, try await clock.measure { output = try await runner.run(countWorkflow).output })
            outputs.append(output)
        }
        guard outputs.allSatisfy({ $0 == .int(iterations) }) else {
            throw BenchmarkFailure(message: "the loops ended on \(Set(outputs.map(\.displayText)).sorted()), not \(iterations)")
        }
        let perWhile = seconds(bestWhile) / Double(iterations) * 1e6
        let perCount = seconds(bestCount) / Double(iterations) * 1e6
        print("(d) repeat while vs. repeat count, \(iterations) iterations of a perform and a set, best of \(rounds) rounds")
        print(String(format: "    while: %.2f µs per iteration", perWhile))
        print(String(format: "    count: %.2f µs per iteration", perCount))
        print(String(format: "    ratio while / count: %.2f×", perWhile / perCount))
    }

    /// (b) `find` with two conditions, a sort and a limit on a library of books vs. the same
    /// query written with GRDB by hand.
    static func find(books: Int, queries: Int) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shortcuts-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        setenv("SHORTCUTS_HOME", folder.path, 1)
        try await LibraryApp.app.setUp()
        let database = try LibraryDatabase.shared()
        let catalog = BookCatalog.bundled.entries
        try await database.writer.write { db in
            var generator = SystemRandomNumberGenerator()
            for index in 0..<books {
                let entry = catalog[index % catalog.count]
                let published = Date(timeIntervalSince1970: Double.random(in: -3e9...1.7e9, using: &generator))
                let record = BookEntity(title: "\(entry.title) \(index)", author: entry.author, datePublished: published)
                try db.execute(
                    sql: """
                        INSERT INTO book (id, title, author, datePublished, shelf, titleKey, authorKey) VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        record.id.uuidString, record.title, record.author, published.timeIntervalSince1970,
                        "wantToRead", ValueComparison.fold(record.title), ValueComparison.fold(record.author)
                    ])
            }
        }
        let authors = Array(Set(catalog.map(\.author))).sorted()
        let since = DateText.parse("1900-01-01")!
        let clock = ContinuousClock()

        var handCount = 0
        let hand = try clock.measure {
            for query in 0..<queries {
                handCount += try handWritten(database, author: ValueComparison.fold(authors[query % authors.count]), since: since).count
            }
        }
        var engineCount = 0
        let engine = try await clock.measure {
            for query in 0..<queries {
                let found = try await EntityQueries.find(
                    BookEntity.self,
                    conditions: [
                        PropertyCondition(property: "author", comparator: .equalTo, operands: [.string(authors[query % authors.count])]),
                        PropertyCondition(property: "datePublished", comparator: .greaterThan, operands: [.date(since)])
                    ],
                    sortedBy: [PropertySort(property: "datePublished", order: .descending)], limit: 3)
                engineCount += found.count
            }
        }
        print("(b) find with two conditions, sort and limit 3 on \(books) books, \(queries) queries (\(engineCount) / \(handCount) results)")
        print(String(format: "    find step: %.1f µs per query", seconds(engine) / Double(queries) * 1e6))
        print(String(format: "    GRDB by hand: %.1f µs per query", seconds(hand) / Double(queries) * 1e6))
        print(String(format: "    ratio find / hand: %.2f× (goal ≤ 1.5×)", seconds(engine) / seconds(hand)))
    }

    /// The baseline of (b): the query as a developer writes it with GRDB, synchronously.
    static func handWritten(_ database: LibraryDatabase, author: String, since: Date) throws -> [BookEntity] {
        try database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM book WHERE authorKey = ? AND datePublished > ? ORDER BY datePublished DESC LIMIT 3
                    """, arguments: [author, since.timeIntervalSince1970]
            ).map { row in
                BookEntity(
                    id: UUID(uuidString: row["id"]) ?? UUID(), title: row["title"], author: row["author"],
                    datePublished: Date(timeIntervalSince1970: row["datePublished"]))
            }
        }
    }

    /// (c) Loading and validating a 1,000-step workflow.
    static func loadAndValidate(steps: Int) throws {
        var text = "name: Long\ninput:\n  title: { type: String, default: Emma }\nsteps:\n"
        for index in 0..<steps {
            switch index % 4 {
            case 0:
                text +=
                    "  - id: s\(index)\n    perform: Library.AddBook\n    with: { title: \"${input.title}\", shelf: read }\n    openWhenRun: false\n"
            case 1: text += "  - set: v\(index)\n    to: \"${s\(index - 1).author} ${previous}\"\n"
            case 2:
                text +=
                    "  - id: f\(index)\n    find: Library.BookEntity\n    where: { author: { equalTo: \"${s\(index - 2).author}\" } }\n    sortBy: [ { datePublished: descending } ]\n    limit: 3\n"
            default: text += "  - show: \"${f\(index - 1).count} books by ${s\(index - 3).author}\"\n"
            }
        }
        let validator = WorkflowValidator(catalog: IntentCatalog(apps: [LibraryApp.app]))
        let clock = ContinuousClock()
        var timings: [Double] = []
        for _ in 0..<21 {
            let elapsed = try clock.measure {
                let workflow = try WorkflowLoader.load(text: text, fileName: "long.yaml")
                let diagnostics = validator.validate(workflow)
                precondition(diagnostics.isEmpty, "\(diagnostics)")
            }
            timings.append(seconds(elapsed))
        }
        timings.sort()
        print("(c) load + validate a \(steps)-step workflow (\(text.count / 1024) KiB), median of 21")
        print(String(format: "    %.1f ms (goal < 50 ms)", timings[10] * 1000))
    }
}
