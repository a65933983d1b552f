#if Web
    import Foundation
    import Hummingbird
    import Logging
    import NIOCore
    import ServiceLifecycle

    /// The local web dashboard: pages over the workflows folder, the automations, the run history,
    /// the search indexes and the installed intents, with live updates of runs, served by
    /// Hummingbird.
    ///
    /// It runs until its task is cancelled (the command line cancels it on `SIGTERM` or Ctrl-C,
    /// or when the daemon serving it stops); then live pages are disconnected and the runs
    /// started from the pages are cancelled and recorded.
    ///
    /// ```swift
    /// let server = try DashboardServer(configuration)
    /// try await server.run { url in logger.info("dashboard at \(url)") }
    /// ```
    public struct DashboardServer: Sendable {
        let site: DashboardSite

        /// Prepares a server.
        ///
        /// - Parameter configuration: What to serve, where, and how it is protected.
        /// - Throws: ``DashboardError`` when the address is reachable from other machines without a
        ///   token, or the token is too short.
        public init(_ configuration: DashboardConfiguration) throws {
            try configuration.checkExposure()
            site = try DashboardSite(configuration)
        }

        /// Serves the pages until the task is cancelled.
        ///
        /// - Parameter onReady: Called with the dashboard's address once it listens (with the port
        ///   the system chose, for port 0).
        /// - Throws: ``DashboardError/cannotListen(_:reason:)`` when the address cannot be bound.
        public func run(onReady: @escaping @Sendable (URL) -> Void = { _ in }) async throws {
            DashboardMetrics.bootstrap()
            let address = site.configuration.address
            let logger = site.logger
            let application = makeApplication { channel in
                let port = channel.localAddress?.port ?? address.port
                let shown = ListenAddress(host: address.host, port: port)
                let url = URL(string: "http://\(shown)/") ?? URL(fileURLWithPath: "/")
                logger.info("dashboard at \(url.absoluteString)\(site.configuration.token == nil ? "" : " (token required)")")
                onReady(url)
            }
            // Cancelling the task shuts the server down gracefully: it stops listening, and the
            // requests in flight end (live pages are closed at once) before it returns.
            // The group runs in a task of its own, which this task's cancellation does not reach.
            let group = ServiceGroup(configuration: .init(services: [application], logger: Self.quietLogger(logger)))
            let running = Task { try await group.run() }
            do {
                try await withTaskCancellationHandler {
                    try await running.value
                } onCancel: {
                    site.broadcaster.close()
                    Task { await group.triggerGracefulShutdown() }
                }
            } catch let error as IOError {
                throw DashboardError.cannotListen(address, reason: String(cString: strerror(error.errnoCode)).lowercased())
            } catch let error as SocketAddressError {
                throw DashboardError.cannotListen(address, reason: "the host name cannot be resolved (\(error))")
            }
            site.broadcaster.close()
            await site.runs.cancelAll()
        }

        /// The Hummingbird application: the routes, on the configured address.
        func makeApplication(
            onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
        ) -> some ApplicationProtocol {
            let address = site.configuration.address
            return Application(
                router: DashboardRoutes(site: site).router,
                configuration: ApplicationConfiguration(address: .hostname(address.host, port: address.port), serverName: nil),
                onServerRunning: onServerRunning, logger: Self.quietLogger(site.logger))
        }

        /// Hummingbird's own records at the level of ours, but its per-request lines left out (ours
        /// are written by ``RequestLogMiddleware``).
        private static func quietLogger(_ logger: Logger) -> Logger {
            var quiet = logger
            quiet.logLevel = max(logger.logLevel, .notice)
            return quiet
        }
    }
#endif
