#if PostgreSQL
    import Foundation
    import Logging
    import PostgresNIO
    import StateStorage

    /// One leased connection running the statements of one transaction for a
    /// ``PostgresStateDatabase``, synchronously: each statement waits for its answer, closing the
    /// connection when none comes within the request timeout.
    final class PostgresSession: StateConnection {
        let connection: PostgresConnection
        let location: String
        let logger: Logger
        let requestTimeout: TimeAmount
        /// Whether the connection is lost or confused, so it must be closed rather than reused.
        private(set) var isBroken = false
        /// The SQLSTATE of the last statement that failed on the server.
        private(set) var lastSQLState: String?

        var dialect: SQLDialect { .postgres }

        init(connection: PostgresConnection, location: String, logger: Logger, requestTimeout: TimeAmount) {
            self.connection = connection
            self.location = location
            self.logger = logger
            self.requestTimeout = requestTimeout
        }

        func execute(_ sql: String, _ values: [SQLValue]) throws -> Int {
            try run(query(sql, values)).metadata.rows ?? 0
        }

        func rows(_ sql: String, _ values: [SQLValue]) throws -> [SQLRow] {
            let result = try run(query(sql, values))
            return try result.rows.map { row in
                var values: [String: SQLValue] = [:]
                for cell in row {
                    let value = try Self.value(of: cell, location: location)
                    values[cell.columnName] = value
                    values[cell.columnName.lowercased()] = value
                }
                return SQLRow(values)
            }
        }

        /// Forgets the last failure's SQLSTATE, before a transaction runs again.
        func resetState() {
            lastSQLState = nil
        }

        /// Runs a statement without placeholders (transaction control, migration scripts).
        func run(_ sql: String) throws {
            _ = try run(PostgresQuery(unsafeSQL: sql))
        }

        private func query(_ sql: String, _ values: [SQLValue]) throws -> PostgresQuery {
            do {
                return try PostgresStatement.query(sql, values)
            } catch {
                throw StateDatabaseError(location: location, reason: "\(error.description), in: \(Self.excerpt(sql))")
            }
        }

        /// Sends a query and waits for all its rows.
        func run(_ query: PostgresQuery) throws -> PostgresQueryResult {
            guard !isBroken else {
                throw StateDatabaseError(location: location, reason: "the connection was lost; try again", isUnavailable: true)
            }
            let timedOut = TimeoutFlag()
            let connection = connection
            let timeout = connection.eventLoop.scheduleTask(in: requestTimeout) {
                timedOut.set()
                let _: EventLoopFuture<Void> = connection.close()
            }
            defer { timeout.cancel() }
            do {
                return try connection.query(query, logger: logger).wait()
            } catch {
                throw mapped(error, sql: query.sql, timedOut: timedOut.isSet)
            }
        }

        /// A statement's failure in words, noting a lost connection.
        private func mapped(_ error: any Error, sql: String, timedOut: Bool) -> StateDatabaseError {
            let failure = PostgresFailure(error)
            if let state = failure.sqlState { lastSQLState = state }
            if timedOut {
                isBroken = true
                return StateDatabaseError(
                    location: location,
                    reason:
                        "no answer within \(requestTimeout.nanoseconds / 1_000_000_000) seconds, so the connection was closed (is the server overloaded or the network down?), in: \(Self.excerpt(sql))",
                    isUnavailable: true)
            }
            if failure.losesConnection { isBroken = true }
            return StateDatabaseError(
                location: location, reason: "\(failure.reason), in: \(Self.excerpt(sql))", isUnavailable: failure.isUnavailable)
        }

        /// The first line of a statement, short enough for a message.
        static func excerpt(_ sql: String) -> String {
            let line = sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            return line.count > 160 ? String(line.prefix(157)) + "…" : line
        }

        /// A result column's value: integers (and `oid`), reals (and `numeric`), texts, booleans
        /// as 0 or 1, times as seconds since 1970; other types as their text.
        static func value(of cell: PostgresCell, location: String) throws -> SQLValue {
            guard cell.bytes != nil else { return .null }
            do {
                switch cell.dataType {
                case .int2, .int4, .int8:
                    return .integer(try cell.decode(Int64.self))
                case .oid:
                    var bytes = cell.bytes!
                    guard cell.format == .binary, let number = bytes.readInteger(as: UInt32.self) else { break }
                    return .integer(Int64(number))
                case .float4, .float8:
                    return .real(try cell.decode(Double.self))
                case .numeric:
                    return .real(NSDecimalNumber(decimal: try cell.decode(Decimal.self)).doubleValue)
                case .bool:
                    return .bool(try cell.decode(Bool.self))
                case .timestamp, .timestamptz, .date:
                    return .real(try cell.decode(Date.self).timeIntervalSince1970)
                case .void:
                    return .null
                default:
                    break
                }
                return .text(try cell.decode(String.self))
            } catch {
                throw StateDatabaseError(
                    location: location,
                    reason:
                        "cannot read column '\(cell.columnName)' of type \(cell.dataType): cast it to bigint, double precision or text in the query")
            }
        }
    }

    /// Set once from the event loop when a request's time is up, read after it ends.
    private final class TimeoutFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    /// What a postgres-nio error means for a caller: the server's SQLSTATE and message, whether
    /// the connection is gone, whether trying again later may work.
    struct PostgresFailure {
        var sqlState: String?
        var reason: String
        var losesConnection: Bool
        var isUnavailable: Bool

        init(_ error: any Error) {
            guard let error = error as? PSQLError else {
                // A channel or socket error: the connection is gone.
                sqlState = nil
                reason = "the connection failed: \(error)"
                losesConnection = true
                isUnavailable = true
                return
            }
            switch error.code {
            case .server:
                let info = error.serverInfo
                let state = info?[.sqlState] ?? "?????"
                var text = "\(info?[.localizedSeverity] ?? "ERROR") \(state): \(info?[.message] ?? "the server refused the statement")"
                if let detail = info?[.detail] { text += " (\(detail))" }
                if let hint = info?[.hint] { text += "; hint: \(hint)" }
                sqlState = state
                reason = text
                // 08: connection exceptions; 57P01–57P05: the server is shutting down, restarting, or ended the session;
                // 53300: too many connections.
                let fatal =
                    state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300"
                    || info?[.severity] == "FATAL" || info?[.severity] == "PANIC"
                losesConnection = fatal
                isUnavailable = fatal
            case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError:
                sqlState = nil
                let underlying = error.underlying.map { ": \($0)" } ?? ""
                reason = "the connection to the server was lost\(underlying)"
                losesConnection = true
                isUnavailable = true
            case .messageDecodingFailure, .unexpectedBackendMessage, .invalidCommandTag:
                sqlState = nil
                reason = "the server sent a message this client does not understand (\(error.code))"
                losesConnection = true
                isUnavailable = false
            default:
                sqlState = nil
                reason = "\(error.code)\(error.underlying.map { ": \($0)" } ?? "")"
                losesConnection = false
                isUnavailable = false
            }
        }
    }
#endif
