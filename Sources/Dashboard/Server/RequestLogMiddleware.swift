#if Web
    import Clockwork
    import Foundation
    import Hummingbird
    import Logging

    /// Logs one line per request at debug (`GET /runs 200 in 3 ms`), and each refusal (401, 403,
    /// 413, 429) at warning with its reason and the client's address, so that `--log-level
    /// warning` shows who was turned away and why.
    struct RequestLogMiddleware: RouterMiddleware {
        typealias Context = DashboardContext

        let logger: Logger
        /// What requests are timed by.
        let clock: any EngineClock

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            let start = clock.now()
            func elapsed() -> String {
                let milliseconds = clock.elapsed(since: start).timeInterval * 1000
                return milliseconds < 10 ? String(format: "%.1f ms", milliseconds) : String(format: "%.0f ms", milliseconds)
            }
            let line = "\(request.method) \(request.uri.path)"
            do {
                let response = try await next(request, context)
                logger.debug("\(line) \(response.status.code) in \(elapsed())")
                return response
            } catch let error as PageError {
                if error.isRefusal {
                    logger.warning("refused \(line) from \(context.remoteAddress): \(error.status.code) \(error.message)")
                } else {
                    logger.debug("\(line) \(error.status.code) in \(elapsed()): \(error.message)")
                }
                throw error
            } catch let error as HTTPError {
                logger.debug("\(line) \(error.status.code) in \(elapsed())")
                throw error
            } catch {
                logger.error("\(line) failed: \(error)")
                throw error
            }
        }
    }
#endif
