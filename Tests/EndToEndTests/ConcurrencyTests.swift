import Foundation
import GRDB
import Testing

/// Several `shortcuts` processes on one home at once: no "database is locked", no duplicate,
/// no run left `running`.
///
/// Each process is waited for on a thread of its own, outside Swift's cooperative pool. The tests run one after another, so that their
/// load adds up no higher than one of them.
@Suite("Concurrency", .serialized, .endToEnd)
struct ConcurrencyTests {
    /// Runs `count` copies of `work` at once and returns what each returned, in order.
    static func concurrently<T: Sendable>(_ count: Int, _ work: @Sendable @escaping (Int) async throws -> T) async throws -> [T] {
        try await withThrowingTaskGroup(of: (Int, T).self) { group in
            for index in 0..<count { group.addTask { (index, try await work(index)) } }
            var results: [Int: T] = [:]
            for try await (index, value) in group { results[index] = value }
            return (0..<count).map { results[$0]! }
        }
    }

    static func read<T>(_ shortcuts: ShortcutsBinary, _ file: String, _ body: (Database) throws -> T) throws -> T {
        try DatabaseQueue(path: shortcuts.home.appendingPathComponent(file).path).read(body)
    }

    @Test func eightConcurrentAddsOfOneTitleStoreOneBook() async throws {
        for _ in 0..<3 {
            let shortcuts = try ShortcutsBinary()
            defer { try? FileManager.default.removeItem(at: shortcuts.home) }
            // A fresh home, then one where the library exists already: they race differently.
            let adds: @Sendable (Int) async throws -> ShortcutsBinary.Result = { _ in
                try await shortcuts.runNiced(["perform", "Library.AddBook", "title=Curtain", "--yes"])
            }
            let results = try await Self.concurrently(8, adds) + Self.concurrently(8, adds)
            let books = try Self.read(shortcuts, "library.sqlite") { db in
                try String.fetchAll(db, sql: "SELECT id FROM book WHERE title = 'Curtain'")
            }
            for result in results {
                #expect(result.status == 0, "\(result.error)")
                #expect(result.output.contains("Added Curtain"))
            }
            #expect(books.count == 1)
        }
    }

    /// 8 processes × 25 operations mixing writes (intents, workflow runs) and reads (runs list,
    /// list intents) on one fresh home. Measured with
    /// `swift test --skip-build --filter ConcurrencyTests/eightProcesses`.
    @Test(.timeLimit(.minutes(6)))
    func eightProcessesOfTwentyFiveMixedOperationsNeverFailNorDuplicate() async throws {
        let shortcuts = try ShortcutsBinary()
        defer { try? FileManager.default.removeItem(at: shortcuts.home) }
        let ownTitles = ["Dracula", "Kitchen", "Dear Life", "Contact", "Pale Blue Dot", "Oliver Twist", "The Martian", "Project Hail Mary"]
        let workflows = ["Workflows/wait-and-stop.yaml", "Workflows/library-tour.yaml", "Workflows/reading-list.yaml", "Workflows/nested-run.yaml"]
        let workers = try await Self.concurrently(8) { worker -> (failures: [String], runs: Int) in
            var failures: [String] = []
            var runs = 0
            for operation in 0..<25 {
                let title = ownTitles[worker]
                let arguments: [String] =
                    switch operation % 8 {
                    case 0: ["perform", "Library.AddBook", "title=Curtain", "--yes"]
                    case 1: ["perform", "Library.AddBook", "title=\(title)", "--yes"]
                    case 2: ["perform", "Library.MarkAsRead", "book=\(title)", "--yes"]
                    case 3: ["run", workflows[(worker + operation) % workflows.count], "--no-interaction"]
                    case 4: ["runs", "list"]
                    case 5: ["list", "intents"]
                    case 6: ["perform", "Library.DeleteBook", "book=\(title)", "--yes"]
                    default: ["run", workflows[(worker + operation + 1) % workflows.count], "--no-interaction"]
                    }
                if arguments[0] == "run" { runs += 1 }
                let result = try await shortcuts.runNiced(arguments)
                if result.status != 0 { failures.append("\(arguments.joined(separator: " ")): exit \(result.status): \(result.error)") }
            }
            return (failures, runs)
        }
        #expect(workers.flatMap(\.failures) == [])
        let duplicates = try Self.read(shortcuts, "library.sqlite") { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM book GROUP BY lower(title), author HAVING count(*) > 1)")
        }
        #expect(duplicates == 0)
        #expect(try Self.read(shortcuts, "library.sqlite") { try Int.fetchOne($0, sql: "SELECT count(*) FROM book WHERE title = 'Curtain'") } == 1)
        let statuses = try Self.read(shortcuts, "runs.sqlite") { db in
            try Row.fetchAll(db, sql: "SELECT status, count(*) AS n FROM run GROUP BY status").map { "\($0["status"] as String): \($0["n"] as Int)" }
        }
        // Nested runs are recorded inside their caller's run.
        #expect(statuses == ["succeeded: \(workers.map(\.runs).reduce(0, +))"])
    }

    @Test(.timeLimit(.minutes(6)))
    func runsKilledAtAnyMomentAreSettledAsInterrupted() async throws {
        let shortcuts = try ShortcutsBinary()
        defer { try? FileManager.default.removeItem(at: shortcuts.home) }
        _ = try await shortcuts.run(["run", "Workflows/wait-and-stop.yaml"])
        try await detached {
            var generator = SystemRandomNumberGenerator()
            let workflows = ["Tests/EndToEndTests/Fixtures/long-wait.yaml", "Workflows/reading-list.yaml", "Workflows/nested-run.yaml"]
            for trial in 0..<12 {
                let process = Process()
                process.executableURL = ShortcutsBinary.executable
                process.arguments = ["run", workflows[trial % workflows.count], "--no-interaction"]
                process.currentDirectoryURL = ShortcutsBinary.packageRoot
                var environment = ProcessInfo.processInfo.environment
                environment["SHORTCUTS_HOME"] = shortcuts.home.path
                process.environment = environment
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                // Some trials kill before the run is recorded, some while it runs, some as it ends.
                // Wall time: a kill at a random moment of a real process's run is what this test checks.
                Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.8, using: &generator))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        // A reader shows them as interrupted without writing...
        let listed = try await shortcuts.run(["runs", "list", "--json", "--limit", "100"])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        #expect(!runs.contains { $0["status"] as? String == "running" })
        // ...and the next writer settles them in the file.
        #expect(try await shortcuts.run(["run", "Workflows/wait-and-stop.yaml"]).status == 0)
        let statuses = try Self.read(shortcuts, "runs.sqlite") { db in try String.fetchAll(db, sql: "SELECT status FROM run") }
        #expect(!statuses.contains("running"))
        #expect(statuses.contains("interrupted"))
        let interrupted = try await shortcuts.run(["runs", "list", "--status", "interrupted"])
        #expect(interrupted.output.contains("interrupted  manual"))
        let shown = try await shortcuts.run(["runs", "show", String(interrupted.output.split(separator: "\n")[1].prefix(8))])
        #expect(shown.output.contains("error: interrupted: its process (pid "))
    }
}
