#if PostgreSQL
    import CLibpq
    import Foundation
    import Logging
    import StateStorage

    /// One leased connection running the statements of one transaction for a
    /// ``PostgresStateDatabase``, synchronously: each statement waits for its answer, closing the
    /// connection when none comes within the request timeout.
    final class PostgresSession: StateConnection {
        let connection: PostgresConnection
        let location: String
        let logger: Logger
        let requestTimeout: Duration
        /// Whether the connection is lost or confused, so it must be closed rather than reused.
        private(set) var isBroken = false
        /// The SQLSTATE of the last statement that failed on the server.
        private(set) var lastSQLState: String?

        var dialect: SQLDialect { .postgres }

        init(connection: PostgresConnection, location: String, logger: Logger, requestTimeout: Duration) {
            self.connection = connection
            self.location = location
            self.logger = logger
            self.requestTimeout = requestTimeout
        }

        @discardableResult
        func execute(_ sql: String, _ values: [SQLValue]) throws -> Int {
            let (text, bound) = try prepared(sql, values)
            return try run(text, bound).changedRows
        }

        func rows(_ sql: String, _ values: [SQLValue]) throws -> [SQLRow] {
            let (text, bound) = try prepared(sql, values)
            let answer = try run(text, bound)
            return answer.rows.map { row in
                var values: [String: SQLValue] = [:]
                for (column, value) in zip(answer.columns, row) {
                    values[column] = value
                    values[column.lowercased()] = value
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
            _ = try run(sql, [])
        }

        private func prepared(_ sql: String, _ values: [SQLValue]) throws -> (String, [PostgresStatement.Value]) {
            do {
                return try PostgresStatement.query(sql, values)
            } catch {
                throw StateDatabaseError(location: location, reason: "\(error.description), in: \(Self.excerpt(sql))")
            }
        }

        /// Sends a statement and waits for its whole answer.
        private func run(_ sql: String, _ values: [PostgresStatement.Value]) throws -> PostgresConnection.Answer {
            guard !isBroken else {
                throw StateDatabaseError(location: location, reason: "the connection was lost; try again", isUnavailable: true)
            }
            do {
                return try connection.query(sql, values, timeout: requestTimeout)
            } catch {
                throw mapped(error, sql: sql)
            }
        }

        /// A statement's failure in words, noting a lost connection.
        private func mapped(_ failure: PostgresFailure, sql: String) -> StateDatabaseError {
            if let state = failure.sqlState { lastSQLState = state }
            if failure.losesConnection { isBroken = true }
            if failure.timedOut {
                return StateDatabaseError(
                    location: location,
                    reason:
                        "\(failure.reason), so the connection was closed (is the server overloaded or the network down?), in: \(Self.excerpt(sql))",
                    isUnavailable: true)
            }
            return StateDatabaseError(
                location: location, reason: "\(failure.reason), in: \(Self.excerpt(sql))", isUnavailable: failure.isUnavailable)
        }

        /// The first line of a statement, short enough for a message.
        static func excerpt(_ sql: String) -> String {
            let line = sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            return line.count > 160 ? String(line.prefix(157)) + "…" : line
        }
    }

    /// What a failure of libpq or the server means for a caller: the server's SQLSTATE and
    /// message, whether the connection is gone, whether trying again later may work.
    struct PostgresFailure: Error {
        var sqlState: String?
        var reason: String
        var losesConnection = false
        var isUnavailable = false
        /// Whether no answer came in time (the connection is closed).
        var timedOut = false

        init(reason: String, losesConnection: Bool = false, isUnavailable: Bool = false, timedOut: Bool = false) {
            self.reason = reason
            self.losesConnection = losesConnection
            self.isUnavailable = isUnavailable
            self.timedOut = timedOut
        }

        /// A statement's error result: the server's, with its SQLSTATE, or libpq's for a lost
        /// connection.
        init(result: OpaquePointer, connectionLost: Bool) {
            func field(_ code: UInt8) -> String? {
                PQresultErrorField(result, Int32(code)).map { String(cString: $0) }
            }
            guard let state = field(UInt8(ascii: "C")) else {
                let message = String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
                reason = "the connection to the server was lost: \(message)"
                losesConnection = true
                isUnavailable = true
                return
            }
            let severity = field(UInt8(ascii: "V")) ?? field(UInt8(ascii: "S")) ?? "ERROR"
            var text = "\(field(UInt8(ascii: "S")) ?? severity) \(state): \(field(UInt8(ascii: "M")) ?? "the server refused the statement")"
            if let detail = field(UInt8(ascii: "D")) { text += " (\(detail))" }
            if let hint = field(UInt8(ascii: "H")) { text += "; hint: \(hint)" }
            sqlState = state
            reason = text
            // 08: connection exceptions; 57P01–57P05: the server is shutting down, restarting, or ended the session;
            // 53300: too many connections.
            let fatal = state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300" || severity == "FATAL" || severity == "PANIC"
            losesConnection = fatal || connectionLost
            isUnavailable = fatal || connectionLost
        }

        /// A connection attempt that failed, from libpq's message. The server's refusals of
        /// this login or database are told apart by its words (libpq gives no SQLSTATE for
        /// them); anything else, the network's failures or a server starting, stopping,
        /// recovering or full, may pass: unavailable, to try again later.
        init(connecting message: String) {
            losesConnection = true
            guard let fatal = message.range(of: "FATAL:") else {
                reason = "cannot connect (\(message)): is the server running and reachable at this address?"
                isUnavailable = true
                return
            }
            let serverText = String(message[fatal.upperBound...]).trimmingCharacters(in: .whitespaces)
            reason = serverText
            if serverText.contains("authentication failed") || serverText.contains("no pg_hba.conf entry")
                || (serverText.hasPrefix("role \"") && serverText.contains("does not exist"))
            {
                sqlState = "28P01"
            } else if serverText.hasPrefix("database \"") && serverText.contains("does not exist") {
                sqlState = "3D000"
            } else if serverText.contains("permission denied") {
                sqlState = "42501"
            } else {
                reason = "cannot connect (\(serverText)): the server is not taking connections; try again later"
                isUnavailable = true
            }
        }
    }
#endif
