import Logging
import Synchronization

/// Where extensions' standard error, `log` notifications and lifecycle go: the engine's log.
///
/// Commands log through a logger of their own (the daemon's writes text or JSON records to
/// standard error) and install it here; until then records go to swift-log's default handler
/// at `warning` level, so that a `run`'s output is not mixed with what extensions chatter.
///
/// ```swift
/// ExtensionLog.install(Logger(label: "shortcuts.daemon"))
/// ```
public enum ExtensionLog {
    private static let installed = Mutex<Logger?>(nil)

    /// Sends extension records to `logger` from now on.
    public static func install(_ logger: Logger) {
        installed.withLock { $0 = logger }
    }

    /// The logger in use.
    static var logger: Logger {
        installed.withLock { installed in
            if let installed { return installed }
            var logger = Logger(label: "shortcuts.extensions")
            logger.logLevel = .warning
            installed = logger
            return logger
        }
    }
}
