import Foundation
import ShortcutsTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `shortcuts serve` or `shortcuts daemon --http` process, with its log in a file, and the
/// address it serves the dashboard at once it says so.
final class DashboardProcess: @unchecked Sendable {
    let process = Process()
    let logFile: URL
    /// The dashboard's address (`http://127.0.0.1:PORT/`).
    private(set) var url: URL?

    /// Starts the binary with these arguments (`serve …`, `daemon …`) in a folder, on a home,
    /// and waits until it logs the dashboard's address.
    ///
    /// - Throws: When it exits or says nothing within `timeout` seconds (the log is in the error).
    init(_ shortcuts: ShortcutsBinary, arguments: [String], in folder: URL, timeout: TimeInterval = 60) throws {
        logFile = shortcuts.home.appendingPathComponent("dashboard-\(UUID().uuidString).log")
        try FileManager.default.createDirectory(at: shortcuts.home, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        process.executableURL = shortcuts.executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["SHORTCUTS_HOME"] = shortcuts.home.path
        environment.removeValue(forKey: "JOURNAL_STREAM")
        environment.removeValue(forKey: "NOTIFY_SOCKET")
        environment.removeValue(forKey: "SHORTCUTS_DATABASE_URL")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = log.split(separator: "\n").first(where: { $0.contains("dashboard at http://") }),
                let address = line.split(separator: " ").first(where: { $0.hasPrefix("http://") })
            {
                url = URL(string: String(address))
                return
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw DashboardProcessError(message: "shortcuts \(arguments.joined(separator: " ")) served no dashboard:\n\(log)")
    }

    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits for the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

struct DashboardProcessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A GET of a dashboard's page, outside Swift's cooperative pool.
func fetch(_ url: URL, headers: [String: String] = [:]) async throws -> (status: Int, body: String) {
    var request = URLRequest(url: url)
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
}
