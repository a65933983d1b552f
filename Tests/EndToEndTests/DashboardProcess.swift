import Foundation
import ShortcutsSystemTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `shortcuts serve` or `shortcuts daemon --http` process, and the address it serves the
/// dashboard at once it says so.
final class DashboardProcess: Sendable {
    let program: BackgroundProgram
    /// The dashboard's address (`http://127.0.0.1:PORT/`).
    let url: URL

    /// Starts the binary with these arguments (`serve …`, `daemon …`) in a folder, on a home,
    /// and waits, woken by each line it logs, until it logs the dashboard's address.
    ///
    /// - Throws: When it exits without saying it (the log is in the error).
    init(_ shortcuts: ShortcutsBinary, arguments: [String], in folder: URL) throws {
        program = try shortcuts.start(
            arguments, in: folder, environment: ["JOURNAL_STREAM": nil, "NOTIFY_SOCKET": nil, "SHORTCUTS_DATABASE_URL": nil])
        func address(in log: String) -> URL? {
            guard let line = log.split(separator: "\n").first(where: { $0.contains("dashboard at http://") }),
                let address = line.split(separator: " ").first(where: { $0.hasPrefix("http://") })
            else { return nil }
            return URL(string: String(address))
        }
        do {
            url = try address(in: program.waitForOutputBlocking("the dashboard's address") { address(in: $0) != nil })!
        } catch {
            program.signal(SIGKILL)
            throw DashboardProcessError(message: "shortcuts \(arguments.joined(separator: " ")) served no dashboard: \(error)")
        }
    }

    var log: String { program.errorSoFar }

    /// Sends SIGTERM and waits for the exit status.
    @discardableResult
    func stop() -> Int32 {
        program.signal(SIGTERM)
        return program.waitBlocking().status
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
