#if Web
    import AutomationKit
    import BuiltInApps
    import Foundation
    import HTTPTypes
    import Hummingbird
    import IntentKit
    import Logging
    import ShortcutsTestSupport
    import SpotlightKit
    import Synchronization
    import Testing
    import WorkflowKit

    @testable import Dashboard

    /// A dashboard on a real temporary `$SHORTCUTS_HOME`: SQLite stores in it, a copy of the
    /// fixture workflows, the built-in apps, and a log that the tests read.
    ///
    /// ```swift
    /// let harness = try DashboardHarness()
    /// try await harness.test { browser in
    ///     let page = try await browser.get("/")
    ///     #expect(page.status == .ok)
    /// }
    /// ```
    final class DashboardHarness: Sendable {
        let home: URL
        let workflows: URL
        let history: RunHistory
        let automations: AutomationStore
        let log: RecordedLog
        let configuration: DashboardConfiguration

        static let catalog = IntentCatalog(apps: BuiltInApps.all)

        /// A home with the fixture workflows of `Fixtures/Workflows` (or another folder of
        /// `Fixtures`; or those named) and fresh stores.
        init(
            fixtures folder: String = "Workflows", workflows names: [String]? = nil, token: String? = nil,
            address: ListenAddress = ListenAddress(host: "127.0.0.1", port: 0),
            configure: (inout DashboardConfiguration) -> Void = { _ in }
        ) throws {
            home = try TemporaryFolder.make(prefix: "dashboard-home")
            workflows = home.appendingPathComponent("Workflows", isDirectory: true)
            try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
            let fixtures = Self.fixtures.appendingPathComponent(folder)
            let files = try names ?? FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".yaml") }
            for file in files {
                let source = fixtures.appendingPathComponent(file).standardizedFileURL
                try FileManager.default.copyItem(at: source, to: workflows.appendingPathComponent(source.lastPathComponent))
            }
            history = try RunHistory(path: home.appendingPathComponent("runs.sqlite").path)
            automations = try AutomationStore(path: home.appendingPathComponent("automations.sqlite").path)
            log = RecordedLog()
            let log = self.log
            var configuration = DashboardConfiguration(
                workflows: workflows, catalog: Self.catalog, automations: automations, history: history,
                search: SearchIndexCatalog(intents: Self.catalog, directory: home.appendingPathComponent("indexes")),
                secrets: SecretStore(folder: home), logger: Logger(label: "dashboard-test") { _ in RecordedLogHandler(log: log) })
            configuration.address = address
            configuration.token = token
            configuration.timeZone = TimeZone(identifier: "UTC") ?? .current
            configuration.pollInterval = .milliseconds(100)
            configure(&configuration)
            self.configuration = configuration
        }

        deinit {
            try? FileManager.default.removeItem(at: home)
        }

        /// The fixtures folder beside these tests.
        static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")

        /// Runs a fixture workflow as `shortcuts run` would, recorded in the home's history.
        @discardableResult
        func run(_ file: String, inputs: [String: IntentValue] = [:], trigger: String = "manual") async throws -> String {
            let workflow = try WorkflowLoader.load(contentsOf: workflows.appendingPathComponent(file))
            let runner = WorkflowRunner(
                catalog: Self.catalog, history: history, trigger: trigger, environment: [:], secrets: SecretStore(folder: home))
            do {
                return try await runner.run(workflow, inputs: inputs).runID ?? ""
            } catch {
                return try history.runs(RunHistory.Filter(limit: 1)).first?.id ?? ""
            }
        }

        /// Serves the dashboard on a free port of this machine while a test's browser uses it,
        /// then stops it as `shortcuts serve` stops at SIGTERM.
        func test<Value: Sendable>(_ body: @Sendable (Browser) async throws -> Value) async throws -> Value {
            let server = try DashboardServer(configuration)
            let (addresses, announce) = AsyncStream<URL>.makeStream()
            let serving = Task {
                defer { announce.finish() }
                try await server.run { announce.yield($0) }
            }
            var ready = addresses.makeAsyncIterator()
            guard let url = await ready.next(), let port = url.port else {
                try await serving.value
                throw HTTPExchange.Failure(description: "the dashboard stopped before it listened")
            }
            do {
                let value = try await body(Browser(port: port))
                serving.cancel()
                try await serving.value
                return value
            } catch {
                serving.cancel()
                _ = try? await serving.value
                throw error
            }
        }

        /// Waits until a condition on the home's history holds, woken by each change of its files.
        func waitFor(_ what: String, _ condition: () throws -> Bool) async throws {
            if try await !eventually(watching: [.folder(home)], { try condition() }) { Issue.record("timed out waiting for \(what)") }
        }
    }

    /// A client that keeps cookies between requests, as a browser does, on a dashboard that
    /// listens on a port of this machine.
    final class Browser: Sendable {
        let port: Int
        private let cookies = Mutex<[String: String]>([:])

        init(port: Int) {
            self.port = port
        }

        /// The cookie of a name, if the server set it.
        func cookie(_ name: String) -> String? { cookies.withLock { $0[name] } }

        /// The form token of this browser (set by the first page it got).
        var formToken: String { cookie("shortcuts_csrf") ?? "" }

        /// A GET of a path.
        func get(_ path: String, headers: HTTPFields = [:]) async throws -> Page {
            try await send(path, method: .get, headers: headers, body: nil)
        }

        /// A POST of a form; the browser's form token is added unless `formToken` says otherwise.
        func post(_ path: String, form: [(String, String)], formToken: String? = nil, headers: HTTPFields = [:]) async throws -> Page {
            var fields = form
            if let token = formToken ?? cookie("shortcuts_csrf") { fields.insert(("csrf", token), at: 0) }
            let body = fields.map { Self.encode($0) + "=" + Self.encode($1) }.joined(separator: "&")
            var headers = headers
            if headers[.contentType] == nil { headers[.contentType] = "application/x-www-form-urlencoded" }
            return try await send(path, method: .post, headers: headers, body: body)
        }

        func send(_ path: String, method: HTTPRequest.Method, headers: HTTPFields, body: String?) async throws -> Page {
            var headers = headers
            let jar = cookies.withLock { $0 }
            if !jar.isEmpty, headers[.cookie] == nil {
                headers[.cookie] = jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            }
            let response = try await HTTPExchange.send(port: port, method: method, path: path, headers: headers, body: body.map { Array($0.utf8) })
            cookies.withLock { jar in
                for header in response.headers[values: .setCookie] {
                    let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                    guard pair.count == 2 else { continue }
                    jar[String(pair[0])] = pair[1].isEmpty ? nil : String(pair[1])
                }
            }
            return Page(status: response.status, headers: response.headers, body: String(decoding: response.body, as: UTF8.self))
        }

        private static func encode(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
        }
    }

    /// An answer: its status, headers and body.
    struct Page: Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: String

        /// The `Location` of a redirect.
        var location: String? { headers[.location] }
    }

    /// The records a dashboard logged, in order.
    final class RecordedLog: Sendable {
        private let records = Mutex<[(level: Logger.Level, message: String)]>([])

        func append(_ level: Logger.Level, _ message: String) {
            records.withLock { $0.append((level, message)) }
        }

        /// The messages logged at a level.
        func messages(at level: Logger.Level) -> [String] {
            records.withLock { $0.filter { $0.level == level }.map(\.message) }
        }
    }

    struct RecordedLogHandler: LogHandler {
        let log: RecordedLog
        var logLevel: Logger.Level = .debug
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.append(event.level, "\(event.message)")
        }
    }
#endif
