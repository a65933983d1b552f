#if PostgreSQL
    import Foundation
    import PostgresStorage
    import ShortcutsSystemTestSupport
    import StateStorage
    import Synchronization
    import Testing

    /// The PostgreSQL adapter runs the shared SQL as written, on a real server: values and types,
    /// placeholders, transactions, conflicts, migrations from many clients at once.
    @Suite(
        "PostgreSQL state database", .enabled(if: PostgresServer.isAvailable, PostgresServer.skipReason), .timeLimit(.minutes(2)),
        .onThreadOfItsOwn)
    struct PostgresStateDatabaseTests {
        static let notes = SchemaMigration(
            name: "notes v1: notes",
            sql: """
                CREATE TABLE note (id bigserial PRIMARY KEY, text text, score double precision, count bigint);
                CREATE INDEX note_count ON note (count)
                """)

        private func database(_ migrations: [SchemaMigration] = [Self.notes]) throws -> PostgresStateDatabase {
            try PostgresStateDatabase(url: PostgresServer.shared().makeDatabase(), migrations: migrations)
        }

        @Test("Values go in and come out with their types; RETURNING gives the new ids; counts are rows changed")
        func values() throws {
            let database = try database()
            try StateDatabaseChecks.values(database)
            #expect(database.dialect == .postgres)
        }

        @Test("Each column type comes back as an integer, a real, a text or null")
        func columnTypes() throws {
            let database = try database()
            let row = try database.read { connection in
                try connection.row(
                    """
                    SELECT 1::smallint AS small, 2::integer AS regular, 9000000000::bigint AS big, 1.5::real AS single,
                           2.25::double precision AS double, 3.5::numeric AS decimal, true AS yes, false AS no,
                           'v'::varchar(3) AS varying, 'n'::name AS name, 'c'::char(2) AS fixed, NULL AS nothing,
                           (SELECT count(*) FROM note) AS count, 'pg_class'::regclass::oid AS oid,
                           to_timestamp(86400) AS time, pg_advisory_xact_lock(1) AS void
                    """, [])
            }
            let values = try #require(row)
            #expect(values["small"] == .integer(1))
            #expect(values["regular"] == .integer(2))
            #expect(values["big"] == .integer(9_000_000_000))
            #expect(values["single"] == .real(1.5))
            #expect(values["double"] == .real(2.25))
            #expect(values["decimal"] == .real(3.5))
            #expect(values["yes"] == .integer(1))
            #expect(values["no"] == .integer(0))
            #expect(values["varying"] == .text("v"))
            #expect(values["name"] == .text("n"))
            #expect(values["fixed"] == .text("c "))
            #expect(values["nothing"] == .null)
            #expect(values["count"] == .integer(0))
            #expect(values["oid"] == .integer(1259))
            #expect(values["time"] == .real(86400))
            #expect(values["void"] == .null)
        }

        @Test("Bound values come back to the last bit: extreme integers, reals and their infinities, any text; times to the microsecond")
        func boundValuesRoundTrip() throws {
            let database = try database()
            let values: [SQLValue] = [
                .integer(.max), .integer(.min), .real(0.1 + 0.2), .real(-1e-300), .real(.greatestFiniteMagnitude), .real(.infinity),
                .real(-.infinity), .text("it's \"quoted\", \\ back, 日本語\nnext line"), .text("")
            ]
            let row = try #require(
                try database.read { connection in
                    try connection.row(
                        "SELECT ? AS a, ? AS b, ? AS c, ? AS d, ? AS e, ? AS f, ? AS g, ? AS h, ? AS i", values)
                })
            #expect(["a", "b", "c", "d", "e", "f", "g", "h", "i"].map { row[$0] } == values)
            let nan = try database.read { try $0.row("SELECT ? AS nan", [.real(.nan)])?.real("nan") }
            #expect(nan?.isNaN == true)
            let times = try #require(
                try database.read { connection in
                    try connection.row(
                        """
                        SELECT '2026-12-04 19:34:01.250001+05:30'::timestamptz AS zoned, '1969-12-31 23:59:59.5'::timestamp AS before1970,
                               '2026-12-04'::date AS day, 'infinity'::timestamptz AS never
                        """, [])
                })
            // The microseconds are read digit by digit: equal to within a double's rounding.
            #expect(abs((times.real("zoned") ?? 0) - 1_796_393_041.250001) < 1e-6)
            #expect(times["before1970"] == .real(-0.5))
            #expect(times["day"] == .real(1_796_342_400))
            #expect(times["never"] == .real(.infinity))
        }

        @Test("A ? inside quoted text, quoted names, comments and dollar-quoted bodies is not a placeholder")
        func placeholdersInQuotes() throws {
            let database = try database()
            let row = try database.read { connection in
                try connection.row(
                    """
                    SELECT '?' AS quoted, 'it''s ?' AS doubled, E'\\'?' AS escaped, $$ ? $$ AS dollar, $tag$ ?$ ? $tag$ AS tagged,
                           "?"."?" AS name, ? AS first, -- a comment? yes
                           /* a block? /* nested? */ still? */ ? AS second
                    FROM (SELECT 'q' AS "?") AS "?"
                    """, [.integer(7), .text("x")])
            }
            let values = try #require(row)
            #expect(values["quoted"] == .text("?"))
            #expect(values["doubled"] == .text("it's ?"))
            #expect(values["escaped"] == .text("'?"))
            #expect(values["dollar"] == .text(" ? "))
            #expect(values["tagged"] == .text(" ?$ ? "))
            #expect(values["name"] == .text("q"))
            #expect(values["first"] == .integer(7))
            #expect(values["second"] == .text("x"))
        }

        @Test("A null value works where SQLite takes one: IS NULL, comparisons, inserts, coalesce")
        func nullValues() throws {
            let database = try database()
            try database.write { try $0.execute("INSERT INTO note (text, score, count) VALUES (?, ?, ?)", [nil, nil, nil]) }
            let row = try database.read { connection in
                try connection.row(
                    "SELECT ? IS NULL AS missing, coalesce(?, 5) AS fallback, (SELECT count(*) FROM note WHERE text IS NULL AND (? IS NULL OR score = ?)) AS matches",
                    [nil, nil, nil, nil])
            }
            #expect(row?.bool("missing") == true)
            #expect(row?.int("fallback") == 5)
            #expect(row?.int("matches") == 1)
            let integerIntoReal = try database.write { connection in
                try connection.row("INSERT INTO note (score, count) VALUES (?, ?) RETURNING score, count", [.integer(3), .real(4)])
            }
            #expect(integerIntoReal?.real("score") == 3 && integerIntoReal?.int("count") == 4)
        }

        @Test("A wrong number of values, a failing statement: errors that name the database and the statement")
        func statementErrors() throws {
            let database = try database()
            let mismatch = #expect(throws: StateDatabaseError.self) {
                try database.read { try $0.rows("SELECT ? AS a, '?' AS b", []) }
            }
            #expect(mismatch?.reason.contains("1 placeholder(s)") == true)
            #expect(mismatch?.isUnavailable == false)
            let failed = #expect(throws: StateDatabaseError.self) {
                try database.write { try $0.execute("INSERT INTO missing_table (a) VALUES (?)", [1]) }
            }
            #expect(failed?.location == database.location)
            #expect(failed?.reason.contains("42P01") == true)
            #expect(failed?.reason.contains("INSERT INTO missing_table") == true)
            #expect(failed?.isUnavailable == false && failed?.isCommitUncertain == false)
            // The connection is still good for the next transaction.
            #expect(try database.read { try $0.row("SELECT 1 AS one", [])?.int("one") } == 1)
        }

        @Test("A body that throws rolls its transaction back; a read cannot write")
        func rollback() throws {
            let database = try database()
            try StateDatabaseChecks.rollback(database)
            #expect(throws: StateDatabaseError.self) {
                try database.read { try $0.execute("INSERT INTO note (text) VALUES (?)", ["read-only"]) }
            }
        }

        @Test("The dialect's current time is the server's clock, in seconds since 1970")
        func currentTime() throws {
            try StateDatabaseChecks.currentTime(try database())
        }

        @Test("Row locks: FOR UPDATE waits, SKIP LOCKED passes over a locked row")
        func rowLocks() throws {
            let database = try database()
            try database.write { connection in
                for index in 1...2 { try connection.execute("INSERT INTO note (count) VALUES (?)", [.integer(Int64(index))]) }
            }
            let locked = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let holder = Thread {
                try? database.write { connection in
                    _ = try connection.rows("SELECT id FROM note WHERE count = 1" + connection.dialect.lockRows, [])
                    locked.signal()
                    release.wait()
                }
            }
            holder.start()
            locked.wait()
            let free = try database.write { connection in
                try connection.rows("SELECT count FROM note ORDER BY count" + connection.dialect.lockRowsSkippingLocked, []).compactMap {
                    $0.int("count")
                }
            }
            release.signal()
            #expect(free == [2])
        }

        @Test("A deadlock between two writers runs the loser's body again, and both commit")
        func deadlockRetry() throws {
            let database = try database()
            try database.write { connection in
                for index in 1...2 { try connection.execute("INSERT INTO note (id, count) VALUES (?, 0)", [.integer(Int64(index))]) }
            }
            let first = DispatchSemaphore(value: 0)
            let second = DispatchSemaphore(value: 0)
            let runs = Counter()
            let errors = Counter()
            func writer(_ mine: Int64, _ other: Int64, signal: DispatchSemaphore, waitFor: DispatchSemaphore) -> Thread {
                Thread {
                    var attempt = 0
                    do {
                        try database.write { connection in
                            attempt += 1
                            runs.add()
                            try connection.execute("UPDATE note SET count = count + 1 WHERE id = ?", [.integer(mine)])
                            if attempt == 1 {
                                signal.signal()
                                waitFor.wait()
                            }
                            try connection.execute("UPDATE note SET count = count + 1 WHERE id = ?", [.integer(other)])
                        }
                    } catch {
                        errors.add()
                    }
                }
            }
            let threads = [writer(1, 2, signal: first, waitFor: second), writer(2, 1, signal: second, waitFor: first)]
            for thread in threads { thread.start() }
            let done = try database.wait(timeout: 20) {
                try $0.row("SELECT sum(count) AS total FROM note", [])?.int("total") == 4
            }
            #expect(done)
            #expect(errors.value == 0)
            #expect(runs.value == 3)
        }

        @Test("Migrations from many clients starting at once: each applied exactly once, in order")
        func concurrentMigrations() throws {
            let url = try PostgresServer.shared().makeDatabase()
            let migrations = (1...4).map { index in
                SchemaMigration(
                    name: "counts v\(index): step \(index)",
                    sql: index == 1
                        ? "CREATE TABLE step (number bigint NOT NULL, at double precision); INSERT INTO step (number) VALUES (1)"
                        : "INSERT INTO step (number) VALUES (\(index)); SELECT pg_sleep(0.05)")
            }
            let failures = Counter()
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for _ in 0..<12 {
                group.enter()
                Thread {
                    start.wait()
                    do {
                        let database = try PostgresStateDatabase(url: url, migrations: migrations)
                        database.close()
                    } catch {
                        failures.add()
                        Issue.record("opening failed: \(error)")
                    }
                    group.leave()
                }.start()
            }
            for _ in 0..<12 { start.signal() }
            group.wait()
            #expect(failures.value == 0)
            let database = try PostgresStateDatabase(url: url, migrations: migrations)
            let steps = try database.read { try $0.rows("SELECT number FROM step ORDER BY number", []).compactMap { $0.int("number") } }
            #expect(steps == [1, 2, 3, 4])
            let names = try database.read {
                try $0.rows("SELECT name FROM shortcuts_migration ORDER BY appliedAt", []).compactMap { $0.text("name") }
            }
            #expect(names == migrations.map(\.name))
        }

        @Test("A failing migration names itself and leaves no trace; the next start applies the fixed one")
        func failingMigration() throws {
            let url = try PostgresServer.shared().makeDatabase()
            let broken = SchemaMigration(name: "notes v2: tags", sql: "CREATE TABLE tag (id bigint); CREATE TABLE tag (id bigint)")
            let error = #expect(throws: StateDatabaseError.self) {
                try PostgresStateDatabase(url: url, migrations: [Self.notes, broken])
            }
            #expect(error?.reason.contains("notes v2: tags") == true)
            #expect(error?.reason.contains("42P07") == true)
            let fixed = SchemaMigration(name: "notes v2: tags", sql: "CREATE TABLE tag (id bigint)")
            let database = try PostgresStateDatabase(url: url, migrations: [Self.notes, fixed])
            #expect(try database.read { try $0.row("SELECT count(*) AS n FROM tag", [])?.int("n") } == 0)
        }

        @Test("A connection lost during COMMIT is an uncertain commit")
        func uncertainCommit() throws {
            let slowCommit = SchemaMigration(
                name: "notes v2: slow commit",
                sql: """
                    CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        PERFORM pg_sleep(3); -- runs at COMMIT; a ? here is no placeholder
                        RETURN NULL;
                    END
                    $$;
                    CREATE CONSTRAINT TRIGGER note_slow_commit AFTER INSERT ON note DEFERRABLE INITIALLY DEFERRED
                        FOR EACH ROW EXECUTE FUNCTION slow_commit()
                    """)
            let database = try database([Self.notes, slowCommit])
            let observer = try PostgresStateDatabase(url: PostgresServer.shared().url, migrations: [])
            let pid = Counter()
            let killer = Thread {
                // Wall time: the commit is ended from another connection while it is slow on the server.
                while pid.value == 0 { Thread.sleep(forTimeInterval: 0.01) }
                Thread.sleep(forTimeInterval: 0.5)
                _ = try? observer.write { try $0.execute("SELECT pg_terminate_backend(CAST(? AS integer))", [.integer(Int64(pid.value))]) }
            }
            killer.start()
            let error = #expect(throws: StateDatabaseError.self) {
                try database.write { connection in
                    let backend = try connection.row("SELECT pg_backend_pid() AS pid", [])?.int("pid") ?? 0
                    try connection.execute("INSERT INTO note (text) VALUES (?)", ["maybe"])
                    pid.set(backend)
                }
            }
            #expect(error?.isCommitUncertain == true)
            #expect(error?.isUnavailable == true)
            #expect(error?.reason.contains("COMMIT") == true)
            // The pool replaced the lost connection.
            #expect(try database.read { try $0.row("SELECT count(*) AS n FROM note", [])?.int("n") } == 0)
        }

        @Test("The location hides the password; a Unix socket URL works; a missing database says how to create it")
        func urls() throws {
            let server = try PostgresServer.shared()
            let database = try PostgresStateDatabase(url: "postgres://postgres:secret@127.0.0.1:\(server.port)/postgres", migrations: [])
            #expect(database.location == "postgres://postgres@127.0.0.1:\(server.port)/postgres")
            let socket = try PostgresStateDatabase(url: server.socketURL(), migrations: [])
            #expect(try socket.read { try $0.row("SELECT 1 AS one", [])?.int("one") } == 1)
            #expect(socket.location.contains("host=\(server.socketDirectory)"))
            let missing = #expect(throws: StateDatabaseError.self) {
                try PostgresStateDatabase(url: "postgresql://postgres:secret@127.0.0.1:\(server.port)/nowhere", migrations: [])
            }
            #expect(missing?.reason.contains("createdb") == true)
            #expect(missing?.description.contains("secret") == false)
            let invalid = #expect(throws: StateDatabaseError.self) {
                try PostgresStateDatabase(url: "mysql://root:secret@db/x", migrations: [])
            }
            #expect(invalid?.description.contains("secret") == false)
            #expect(invalid?.reason.contains("postgres://user:password@host:5432/database") == true)
        }
    }

    /// The adapter across server restarts and outages, each test on a server of its own.
    @Suite(
        "PostgreSQL state database across outages", .enabled(if: PostgresServer.isAvailable, PostgresServer.skipReason), .timeLimit(.minutes(2)),
        .onThreadOfItsOwn)
    struct PostgresOutageTests {
        private func open(_ server: PostgresServer) throws -> PostgresStateDatabase {
            try PostgresStateDatabase(url: server.makeDatabase(), migrations: [PostgresStateDatabaseTests.notes])
        }

        /// Keeps every connection of the pool busy once, so that all of them are open.
        private func openAllConnections(_ database: PostgresStateDatabase) {
            let group = DispatchGroup()
            for _ in 0..<4 {
                group.enter()
                Thread {
                    _ = try? database.read { try $0.execute("SELECT pg_sleep(0.2)", []) }
                    group.leave()
                }.start()
            }
            group.wait()
        }

        @Test("After a restart the next call reconnects: kept connections are replaced without an error")
        func reconnectAfterRestart() throws {
            let server = try PostgresServer.start()
            defer { server.stop(removingFiles: true) }
            let database = try open(server)
            openAllConnections(database)
            try server.restart()
            for index in 0..<6 {
                try database.write { try $0.execute("INSERT INTO note (count) VALUES (?)", [.integer(Int64(index))]) }
            }
            #expect(try database.read { try $0.row("SELECT count(*) AS n FROM note", [])?.int("n") } == 6)
        }

        @Test("While the server is down every call fails fast as unavailable; once it is back calls work again")
        func unavailableWhileDown() throws {
            let server = try PostgresServer.start()
            defer { server.stop(removingFiles: true) }
            let database = try open(server)
            openAllConnections(database)
            server.stop()
            var slowest = 0.0
            for _ in 0..<20 {
                let started = Date()
                let error = #expect(throws: StateDatabaseError.self) {
                    try database.write { try $0.execute("INSERT INTO note (count) VALUES (1)", []) }
                }
                slowest = max(slowest, -started.timeIntervalSinceNow)
                #expect(error?.isUnavailable == true)
                #expect(error?.isCommitUncertain == false)
                #expect(error?.location == database.location)
                // Wall time: attempts spread over the outage of the real server.
                Thread.sleep(forTimeInterval: 0.02)
            }
            #expect(slowest < 1)
            let opening = #expect(throws: StateDatabaseError.self) {
                try PostgresStateDatabase(url: server.url, migrations: [])
            }
            #expect(opening?.isUnavailable == true)
            #expect(opening?.reason.contains("cannot connect") == true)
            try server.restart()
            let back = try database.wait(timeout: 5) { try $0.row("SELECT count(*) AS n FROM note", [])?.int("n") == 0 }
            #expect(back)
        }

        @Test("A writer that retries with backoff through an outage loses nothing and writes nothing twice")
        func writesThroughAnOutage() async throws {
            let server = try PostgresServer.start()
            defer { server.stop(removingFiles: true) }
            let database = try open(server)
            let written = Counter()
            let unavailable = Counter()
            let serverDown = Counter()
            let unexpected = Mutex<[String]>([])
            let writer = Thread {
                for index in 0..<60 {
                    // Half the rows are written before the outage, and the rest from the moment
                    // the server is down, whatever the machine's load.
                    // Wall time: the writer paces its rows over the outage of the real server and backs off while it is down.
                    while index == 30 && serverDown.value == 0 { Thread.sleep(forTimeInterval: 0.01) }
                    var delay = 0.05
                    while true {
                        do {
                            // Written once: after an uncertain commit the row may be there already.
                            try database.write { connection in
                                let present = try connection.row("SELECT 1 AS one FROM note WHERE count = ?", [.integer(Int64(index))])
                                if present == nil {
                                    try connection.execute("INSERT INTO note (count) VALUES (?)", [.integer(Int64(index))])
                                }
                            }
                            written.add()
                            break
                        } catch let error as StateDatabaseError where error.isUnavailable {
                            unavailable.add()
                            // Wall time: the writer backs off while the real server is down.
                            Thread.sleep(forTimeInterval: delay)
                            delay = min(delay * 2, 0.5)
                        } catch {
                            unexpected.withLock { $0.append("row \(index): \(error)") }
                            return
                        }
                    }
                    // Wall time: the rows are spread over the outage of the real server.
                    Thread.sleep(forTimeInterval: 0.02)
                }
            }
            writer.start()
            // The waits run outside the cooperative pool: this test sleeps and polls for seconds.
            let (running, done) = try await detached { () -> (Bool, Bool) in
                _ = try database.wait(timeout: 30) { _ in written.value >= 30 }
                server.stopFor(seconds: 2)
                serverDown.set(1)
                let running = server.waitUntilRunning()
                return (running, try database.wait(timeout: 30) { _ in written.value == 60 })
            }
            #expect(running)
            #expect(done)
            #expect(unexpected.withLock { $0 } == [])
            #expect(unavailable.value > 0)
            let counts = try database.read { try $0.rows("SELECT count FROM note ORDER BY count", []).compactMap { $0.int("count") } }
            #expect(counts == Array(0..<60))
        }
    }

    /// A number several threads change.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var number = 0
        var value: Int { lock.withLock { number } }
        func add() { lock.withLock { number += 1 } }
        func set(_ value: Int) { lock.withLock { number = value } }
    }

    extension StateDatabase {
        /// Polls a read until it is true or the time is up, while the database is unavailable too.
        func wait(timeout: Double, until condition: (any StateConnection) throws -> Bool) throws -> Bool {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while Date() < deadline {
                do {
                    if try read(condition) { return true }
                } catch let error as StateDatabaseError where error.isUnavailable {}
                // Wall time: a read is asked again while the real server is down, which gives no event.
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }
    }
#endif
