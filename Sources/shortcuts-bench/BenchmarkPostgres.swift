import Foundation

/// A throwaway PostgreSQL server for the benchmark: `initdb` in a temporary folder, `pg_ctl start`
/// on a free port of 127.0.0.1 (as the `postgres` user when run as root, since the server refuses
/// root), one database per measurement, stopped and deleted at the end.
final class BenchmarkPostgres {
    let folder: URL
    let port: Int
    private let binaries: URL
    private let runsAsRoot: Bool

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The newest `/usr/lib/postgresql/VERSION/bin`, or `nil` when the server is not installed.
    static var binaries: URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.compactMap(Int.init).sorted().reversed()
            .map { root.appendingPathComponent("\($0)/bin") }
            .first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("pg_ctl").path) }
    }

    /// Initialises and starts a server.
    ///
    /// - Throws: `Failure` naming the command that failed, with its output, or saying how to
    ///   install the server (`apt-get install postgresql`).
    static func start() throws -> BenchmarkPostgres {
        guard let binaries else {
            throw Failure(description: "no PostgreSQL server in /usr/lib/postgresql/*/bin: install it with apt-get install postgresql")
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("shortcuts-bench-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("socket"), withIntermediateDirectories: true)
        let runsAsRoot = getuid() == 0
        if runsAsRoot { try Self.run("/bin/chown", ["-R", "postgres", folder.path]) }
        let server = BenchmarkPostgres(folder: folder, port: Self.freePort(), binaries: binaries, runsAsRoot: runsAsRoot)
        try server.tool("initdb", ["-D", server.data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"])
        try server.tool(
            "pg_ctl",
            [
                "-D", server.data, "-l", folder.appendingPathComponent("server.log").path, "-w", "-t", "30", "-o",
                "-p \(server.port) -k \(folder.appendingPathComponent("socket").path) -c listen_addresses=127.0.0.1 -c max_connections=200",
                "start"
            ])
        return server
    }

    private init(folder: URL, port: Int, binaries: URL, runsAsRoot: Bool) {
        self.folder = folder
        self.port = port
        self.binaries = binaries
        self.runsAsRoot = runsAsRoot
    }

    private var data: String { folder.appendingPathComponent("data").path }

    /// Creates an empty database and returns its URL.
    func makeDatabase(_ name: String) throws -> String {
        try tool("createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", name])
        return "postgres://postgres@127.0.0.1:\(port)/\(name)"
    }

    /// Stops the server at once and deletes its folder.
    func stop() {
        try? tool("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: folder)
    }

    private func tool(_ name: String, _ arguments: [String]) throws {
        let path = binaries.appendingPathComponent(name).path
        if runsAsRoot {
            try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments)
        } else {
            try Self.run(path, arguments)
        }
    }

    /// Runs a program to its end with its output in a file, through `posix_spawn` and `waitpid`
    /// (the server that `pg_ctl start` leaves running keeps the file open, not a pipe).
    private static func run(_ executable: String, _ arguments: [String]) throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("shortcuts-bench-pg-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status >> 8) & 0xff
        guard status & 0x7f == 0, exitStatus == 0 else {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            throw Failure(description: "\(([executable] + arguments).joined(separator: " ")) exited \(exitStatus): \(text)")
        }
    }

    /// A port of 127.0.0.1 that nothing listens on: bound to port 0, read back, released.
    private static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
