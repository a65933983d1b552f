import Foundation

/// A real PostgreSQL server for tests and benchmarks: a fresh cluster in a temporary folder (`initdb`), started
/// with `pg_ctl` on a free port of 127.0.0.1 and a socket folder of its own, trust
/// authentication, one new database per ``makeDatabase()``.
///
/// The server binaries are found in `/usr/lib/postgresql/*/bin` (Debian's `postgresql`
/// package) or `PATH`. PostgreSQL refuses to run as root, so when the tests run as root the
/// binaries run as the `postgres` user (`runuser -u postgres --`) and the cluster's folder is
/// given to that user.
///
/// One server serves a whole test process: ``shared()`` starts it on first use and it stops
/// when the process exits.
///
/// ```swift
/// @Suite(.enabled(if: PostgresServer.isAvailable, PostgresServer.skipReason))
/// struct NotesOnPostgres {
///     @Test func stores() throws {
///         let url = try PostgresServer.shared().makeDatabase()   // postgres://postgres@127.0.0.1:54012/test_…
///         …
///     }
/// }
/// ```
public final class PostgresServer: @unchecked Sendable {
    /// The folder with `initdb`, `pg_ctl`, `createdb`, or `nil` when PostgreSQL is not installed.
    public static let binaries: URL? = findBinaries()

    /// What prevents a server from starting here, in words with the fix, or `nil`.
    public static var missingPiece: String? {
        if !buildHasTrait {
            return "needs a build with PostgreSQL support: swift test --traits PostgreSQL"
        }
        if binaries == nil {
            return "needs the PostgreSQL server (apt-get install postgresql): no initdb in /usr/lib/postgresql/*/bin or PATH"
        }
        if getuid() == 0 && getpwnam("postgres") == nil {
            return "runs as root but there is no 'postgres' user to run the server as (apt-get install postgresql creates it)"
        }
        return nil
    }

    private static var buildHasTrait: Bool {
        #if PostgreSQL
            true
        #else
            false
        #endif
    }

    /// The server of this test process, started on first use and stopped at exit.
    ///
    /// - Throws: ``PostgresServerError`` when the server cannot start, with its log.
    public static func shared() throws -> PostgresServer {
        try sharedLock.withLock {
            if let sharedServer { return sharedServer }
            let started = try start()
            sharedServer = started
            atexit {
                PostgresServer.sharedLock.withLock { PostgresServer.sharedServer }?.stop(removingFiles: true)
            }
            return started
        }
    }

    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var sharedServer: PostgresServer?

    /// Creates a cluster in a new temporary folder and starts a server on it.
    ///
    /// - Returns: The running server; stop it with ``stop()``.
    /// - Throws: ``PostgresServerError`` naming the step that failed and its output.
    public static func start() throws -> PostgresServer {
        if let missingPiece = missingPiece { throw PostgresServerError(message: "cannot start PostgreSQL: \(missingPiece)") }
        let server = try PostgresServer()
        do {
            try server.initialize()
            try server.startWithFreePort()
        } catch {
            server.stop(removingFiles: true)
            throw error
        }
        return server
    }

    /// The temporary folder holding the cluster (`data`), the socket folder (`sockets`) and the log.
    public let folder: URL
    /// The port it listens on at 127.0.0.1, the same after ``restart()``.
    public private(set) var port: Int = 0
    /// The folder of its Unix socket (`.s.PGSQL.<port>`).
    public var socketDirectory: String { folder.appendingPathComponent("sockets").path }
    /// Its log file.
    public var logFile: URL { folder.appendingPathComponent("server.log") }
    private var dataDirectory: String { folder.appendingPathComponent("data").path }
    /// The folder of its write-ahead log: every commit writes there, so a test that waits for
    /// a row is woken by a change of this folder (inotify) rather than asking again and again.
    public var writeAheadLog: URL { folder.appendingPathComponent("data/pg_wal") }
    private let binaryFolder: URL
    private let runAsPostgres = getuid() == 0
    private let lock = NSLock()
    private var databaseCount = 0

    private init() throws {
        guard let binaryFolder = Self.binaries else {
            throw PostgresServerError(message: "cannot start PostgreSQL: no initdb in /usr/lib/postgresql/*/bin or PATH")
        }
        self.binaryFolder = binaryFolder
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("postgres-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The URL of its `postgres` database over TCP, as user `postgres` without a password.
    public var url: String { "postgres://postgres@127.0.0.1:\(port)/postgres" }

    /// The URL of a database over the Unix socket.
    ///
    /// - Parameter database: The database's name.
    public func socketURL(database: String = "postgres") -> String {
        "postgres://postgres@/\(database)?host=\(socketDirectory)&port=\(port)"
    }

    /// Creates a new, empty database (`createdb`) and returns its URL.
    ///
    /// ```swift
    /// let url = try PostgresServer.shared().makeDatabase()
    /// ```
    ///
    /// - Returns: `postgres://postgres@127.0.0.1:<port>/<name>`.
    /// - Throws: ``PostgresServerError`` with `createdb`'s output.
    public func makeDatabase() throws -> String {
        let name = lock.withLock {
            databaseCount += 1
            return "test_\(getpid())_\(databaseCount)"
        }
        try run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", name], asPostgres: false)
        return "postgres://postgres@127.0.0.1:\(port)/\(name)"
    }

    /// Stops the server if it runs and starts it again on the same port with the same files.
    ///
    /// - Throws: ``PostgresServerError`` with the server's log when it does not come back.
    public func restart() throws {
        stop()
        try startServer()
    }

    /// Stops the server now and starts it again after `seconds` on a background thread, for
    /// tests of what clients do while it is away; ``waitUntilRunning(timeout:)`` waits for its return.
    ///
    /// - Parameter seconds: How long the server stays down.
    public func stopFor(seconds: Double) {
        stop()
        let restarted = DispatchSemaphore(value: 0)
        lock.withLock { pendingStart = restarted }
        Thread.detachNewThread {
            // Wall time: an outage of the real server lasts this long.
            Thread.sleep(forTimeInterval: seconds)
            do { try self.startServer() } catch { FileHandle.standardError.write(Data("PostgresServer: restart failed: \(error)\n".utf8)) }
            restarted.signal()
        }
    }

    private var pendingStart: DispatchSemaphore?

    /// Waits for the start scheduled by ``stopFor(seconds:)``.
    ///
    /// - Parameter timeout: How long to wait at most.
    /// - Returns: Whether the server runs.
    @discardableResult
    public func waitUntilRunning(timeout: Double = 60) -> Bool {
        if let pending = lock.withLock({ pendingStart }) {
            guard pending.wait(timeout: .now() + timeout) == .success else { return false }
            pending.signal()
        }
        return isRunning
    }

    /// Whether the server answers (`pg_ctl status`).
    public var isRunning: Bool {
        (try? run("pg_ctl", ["-D", dataDirectory, "status"])) != nil
    }

    // MARK: Steps

    private func initialize() throws {
        let sockets = folder.appendingPathComponent("sockets").path
        try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
        if runAsPostgres, let user = getpwnam("postgres") {
            for path in [folder.path, sockets] {
                guard chown(path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                    throw PostgresServerError(message: "cannot give \(path) to the postgres user: \(String(cString: strerror(errno)))")
                }
            }
        }
        try run("initdb", ["-D", dataDirectory, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"])
    }

    private func startWithFreePort() throws {
        var lastError: (any Error)?
        for _ in 0..<5 {
            port = try Self.freePort()
            do {
                try startServer()
                return
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }

    private func startServer() throws {
        let options = [
            "-c listen_addresses=127.0.0.1", "-c port=\(port)", "-c unix_socket_directories=\(socketDirectory)",
            "-c max_connections=400", "-c fsync=off", "-c full_page_writes=off", "-c shared_buffers=32MB"
        ].joined(separator: " ")
        do {
            try run("pg_ctl", ["-D", dataDirectory, "-l", logFile.path, "-o", options, "-w", "-t", "60", "start"])
        } catch let error as PostgresServerError {
            let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            throw PostgresServerError(message: "\(error.message)\nserver log (\(logFile.path)):\n\(log.suffix(2000))")
        }
    }

    /// Stops the server at once (`pg_ctl stop -m immediate`).
    ///
    /// - Parameter removingFiles: Whether to delete its folder too; otherwise ``restart()`` starts it again.
    public func stop(removingFiles: Bool = false) {
        if FileManager.default.fileExists(atPath: dataDirectory + "/postmaster.pid") {
            _ = try? run("pg_ctl", ["-D", dataDirectory, "-m", "immediate", "-w", "-t", "30", "stop"])
        }
        if removingFiles {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Runs one of the PostgreSQL programs and waits for it.
    ///
    /// `posix_spawn` rather than `Process`: the server that `pg_ctl start` leaves running would
    /// inherit the descriptor through which `Process` learns that its child ended, and
    /// `waitUntilExit()` would wait for the server.
    @discardableResult
    private func run(_ program: String, _ arguments: [String], asPostgres: Bool = true) throws -> String {
        let executable = binaryFolder.appendingPathComponent(program).path
        let command = asPostgres && runAsPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--", executable] + arguments : [executable] + arguments
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("postgres-output-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let status = try Self.spawnAndWait(command, output: outputFile.path)
        let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw PostgresServerError(message: "\(program) \(arguments.joined(separator: " ")) failed with status \(status): \(text)")
        }
        return text
    }

    /// Starts a program with its output in a file and waits for its exit status.
    private static func spawnAndWait(_ command: [String], output: String) throws -> Int32 {
        #if os(Linux)
            var actions = posix_spawn_file_actions_t()
        #else
            var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let arguments = command.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, arguments, environ)
        guard spawned == 0 else {
            throw PostgresServerError(message: "cannot run \(command[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // The exit status when it exited, 128 + the signal when a signal ended it.
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    private static func freePort() throws -> Int {
        #if os(Linux)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw PostgresServerError(message: "cannot open a socket to find a free port") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw PostgresServerError(message: "cannot bind 127.0.0.1 to find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func findBinaries() -> URL? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap(Int.init).sorted(by: >)
        for version in versions {
            let folder = URL(fileURLWithPath: "\(root)/\(version)/bin")
            if FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("initdb").path) { return folder }
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for entry in path.split(separator: ":") {
            let folder = URL(fileURLWithPath: String(entry))
            if FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("initdb").path)
                && FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("pg_ctl").path)
            {
                return folder
            }
        }
        return nil
    }
}

/// A PostgreSQL server for tests or benchmarks did not start or stop: the step, its output and the server's log.
public struct PostgresServerError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(message: String) {
        self.message = message
    }
}
