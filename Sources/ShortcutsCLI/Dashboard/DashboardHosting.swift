#if Web
    import Dashboard
    import Foundation

    /// Runs the dashboard for the command line: until a signal (`serve`), or beside a daemon until
    /// it stops (`daemon --http`).
    enum DashboardHosting {
        /// Serves until one of the signals arrives.
        static func serve(_ configuration: DashboardConfiguration, until signals: [Int32]) async throws {
            let task = start(configuration)
            let watch = SignalWatch(signals) { number in
                configuration.logger.info("received \(number == SIGTERM ? "SIGTERM" : "SIGINT"): stopping")
                task.cancel()
            }
            defer { watch.stop() }
            try await task.value
        }

        /// Starts serving in a task that runs until cancelled.
        static func start(_ configuration: DashboardConfiguration) -> Task<Void, any Error> {
            Task {
                do {
                    try await DashboardServer(configuration).run()
                } catch is CancellationError {
                    return
                } catch let error as DashboardError {
                    configuration.logger.critical("\(error)")
                    var help: [String] = []
                    if case .cannotListen(let address, _) = error {
                        help = [
                            "choose another address with --http HOST:PORT, such as --http \(address.host):0 for any free port"
                        ]
                    }
                    throw CommandLineError(error.description, help: help)
                }
            }
        }
    }
#endif
