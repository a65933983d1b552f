import ArgumentParser
import AutomationKit
import Clockwork
import Foundation
import IntentKit
import Logging
import PostgresStorage
import StateStorage
import Synchronization
import WorkflowKit

/// `--database URL`: the shared PostgreSQL database, else `$SHORTCUTS_DATABASE_URL`, else the
/// SQLite files of `$SHORTCUTS_HOME`.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The PostgreSQL database shared by daemons on many machines, such as postgres://shortcuts:PASSWORD@db:5432/shortcuts "
                + "(default: $SHORTCUTS_DATABASE_URL; without either, the SQLite files of $SHORTCUTS_HOME).",
            valueName: "url"))
    var database: String?

    /// The URL given, and where it was given, or `nil` for the SQLite files.
    var source: StateStores.Source? {
        if let database { return .init(url: database, origin: "--database") }
        return .environment
    }
}

/// Where the daemons' state (``AutomationStore``) and the run history (``RunHistory``) are kept:
/// both on one shared PostgreSQL database, or the SQLite files of `$SHORTCUTS_HOME`
/// (`automations.sqlite`, `runs.sqlite`).
///
/// ```swift
/// let stores = try StateStores.open(store.source)
/// let runs = try stores.history.runs(RunHistory.Filter(limit: 10))
/// ```
struct StateStores: Sendable {
    /// A database URL and the option or variable it came from, for messages.
    struct Source: Sendable {
        var url: String
        var origin: String

        /// The URL without its password, for messages and logs.
        var shownURL: String { StateStores.withoutPassword(url) }

        /// `$SHORTCUTS_DATABASE_URL`, for commands without `--database`.
        static var environment: Source? {
            guard let url = ProcessEnvironment.current["SHORTCUTS_DATABASE_URL"], !url.isEmpty else { return nil }
            return Source(url: url, origin: "SHORTCUTS_DATABASE_URL")
        }
    }

    var automations: AutomationStore
    var history: RunHistory
    /// The shared database's URL without its password; `nil` for the SQLite files.
    var sharedLocation: String?

    /// Opens both stores (creating or migrating them); a shared database is opened once per
    /// process and stays open until it exits.
    ///
    /// - Parameters:
    ///   - source: The shared database, or `nil` for the SQLite files of `$SHORTCUTS_HOME`.
    ///   - logger: Receives the shared database's connections, retries and migrations; warnings
    ///     and errors only by default.
    /// - Throws: `CommandLineError` naming the database (without its password) and how to fix it.
    static func open(_ source: Source?, logger: Logger = quietLogger) throws -> StateStores {
        guard let source else {
            let automations: AutomationStore
            let history: RunHistory
            do {
                automations = try AutomationStore.shared(clock: TaskClock.current)
                history = try RunHistory.shared(clock: TaskClock.current)
            } catch {
                throw CommandLineError(error)
            }
            return StateStores(automations: automations, history: history, sharedLocation: nil)
        }
        return try opened.withLock { opened in
            if let stores = opened[source.url] { return stores }
            let database = try openShared(source, logger: logger)
            do {
                let stores = StateStores(
                    automations: try AutomationStore(database: database, clock: TaskClock.current),
                    history: try RunHistory(database: database, clock: TaskClock.current),
                    sharedLocation: source.shownURL)
                opened[source.url] = stores
                return stores
            } catch {
                throw failure(error, source: source)
            }
        }
    }

    /// The shared databases opened by this process, by URL.
    private static let opened = Mutex<[String: StateStores]>([:])

    /// The commands' logger for the shared database: its warnings and errors, on standard error.
    static var quietLogger: Logger {
        var logger = Logger(label: "shortcuts.postgres")
        logger.logLevel = .warning
        return logger
    }

    /// The run history alone, for the commands that only read or record runs: `nil` when it is
    /// the SQLite file and `readOnly` and the file does not exist yet (no run was recorded).
    static func history(_ source: Source?, readOnly: Bool = false) throws -> RunHistory? {
        guard source != nil else {
            if readOnly && RunHistory.isAbsent { return nil }
            do {
                return try RunHistory.shared(readOnly: readOnly, clock: TaskClock.current)
            } catch {
                throw CommandLineError(error)
            }
        }
        return try open(source).history
    }

    /// The daemons' state alone, for the commands that read claims.
    static func automations(_ source: Source?) throws -> AutomationStore {
        guard source != nil else {
            do {
                return try AutomationStore.shared(clock: TaskClock.current)
            } catch {
                throw CommandLineError(error)
            }
        }
        return try open(source).automations
    }

    /// The shared database, migrated for both stores.
    private static func openShared(_ source: Source, logger: Logger) throws -> any StateDatabase {
        let scheme = source.url.prefix { $0 != ":" }.lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw CommandLineError(
                "\(source.origin) '\(source.shownURL)' is not a PostgreSQL URL",
                help: [
                    "write it postgres://USER:PASSWORD@HOST:5432/DATABASE (or ?host=/run/postgresql for a local socket)",
                    "or leave it unset to keep the state in the SQLite files of \(ShortcutsHome.directory().path)"
                ])
        }
        #if PostgreSQL
            do {
                return try PostgresStateDatabase(
                    url: source.url, migrations: AutomationStore.postgresMigrations + RunHistory.postgresMigrations, logger: logger)
            } catch {
                throw failure(error, source: source)
            }
        #else
            throw CommandLineError(
                "\(source.origin) names a PostgreSQL database (\(source.shownURL)), but this build of shortcuts has no PostgreSQL support",
                help: [
                    PostgresSupport.rebuildHint,
                    "or unset \(source.origin) to keep the state in the SQLite files of \(ShortcutsHome.directory().path)"
                ])
        #endif
    }

    private static func failure(_ error: any Error, source: Source) -> CommandLineError {
        let reason = withoutPassword((error as? StateDatabaseError)?.reason ?? "\(error)")
        var help = ["check that the server runs and accepts connections from this machine, and the URL's user, password and database"]
        if (error as? StateDatabaseError)?.isUnavailable != true {
            help = ["check the URL's user, password and database, and that the user may create tables in it"]
        }
        help.append("the URL comes from \(source.origin)")
        return CommandLineError("cannot use the PostgreSQL database \(source.shownURL): \(reason)", help: help)
    }

    /// A text with the password of every URL in it removed: `postgres://ada:secret@db/x` → `postgres://ada@db/x`.
    static func withoutPassword(_ text: String) -> String {
        text.replacing(/(?<head>[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\/:@\s]*):[^@\s]*@/) { "\($0.output.head)@" }
    }
}
