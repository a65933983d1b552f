#if PostgreSQL
    import CLibpq
    import Clockwork
    import Foundation
    import StateStorage

    #if canImport(Glibc)
        import Glibc
    #endif

    /// One connection to a PostgreSQL server through libpq, PostgreSQL's own client library,
    /// used by one thread at a time.
    ///
    /// Every wait is bounded: connecting and each statement's answer poll the socket until a
    /// deadline on ``PostgresStateDatabase/networkClock``, and a connection whose answer does
    /// not come in time is closed. Statements use the extended protocol, one at a time, with
    /// their parameters and results as text.
    ///
    /// ```swift
    /// let connection = try PostgresConnection.connect(to: endpoint, timeout: .seconds(2), settings: [])
    /// let answer = try connection.query("SELECT $1 + 1 AS n", [.init(text: "41", type: 20)], timeout: .seconds(20))
    /// // answer.rows == [[.integer(42)]]
    /// ```
    final class PostgresConnection {
        /// What a statement answered.
        struct Answer {
            /// The result's column names, in order.
            var columns: [String] = []
            /// Its rows, each value in the column's order.
            var rows: [[SQLValue]] = []
            /// How many rows the statement returned, or an `INSERT`, `UPDATE` or `DELETE` changed.
            var changedRows = 0
        }

        private var handle: OpaquePointer?

        private init(_ handle: OpaquePointer) {
            self.handle = handle
        }

        deinit {
            close()
        }

        /// Whether the connection is closed or was lost.
        var isClosed: Bool {
            guard let handle else { return true }
            return PQstatus(handle) != CONNECTION_OK
        }

        /// Closes the connection (again, harmlessly).
        func close() {
            if let handle { PQfinish(handle) }
            handle = nil
        }

        /// Opens a connection and logs in.
        ///
        /// - Parameters:
        ///   - endpoint: Where the server is and who logs in.
        ///   - timeout: How long the whole opening may take: connecting, TLS, the login.
        ///   - settings: Server settings for the session (`-c name=value` options).
        /// - Throws: ``PostgresFailure`` with the server's or the network's reason.
        static func connect(to endpoint: PostgresEndpoint, timeout: Duration, settings: [(String, String)]) throws(PostgresFailure)
            -> PostgresConnection
        {
            // Dates come back as ISO text in UTC, which ``value(_:type:)`` reads.
            let options = (settings + [("DateStyle", "ISO"), ("TimeZone", "UTC")]).map { "-c \($0.0)=\(Self.escapedOption($0.1))" }
            var parameters: [(String, String)] = [
                ("host", endpoint.socketFolder ?? endpoint.host), ("port", String(endpoint.port)), ("user", endpoint.user),
                ("dbname", endpoint.database), ("sslmode", endpoint.sslMode), ("application_name", endpoint.applicationName),
                ("client_encoding", "UTF8"), ("options", options.joined(separator: " "))
            ]
            if let password = endpoint.password { parameters.append(("password", password)) }
            guard let handle = Self.withCStrings(parameters, { keywords, values in PQconnectStartParams(keywords, values, 0) }) else {
                throw PostgresFailure(reason: "libpq could not allocate a connection", losesConnection: true, isUnavailable: true)
            }
            let connection = PostgresConnection(handle)
            guard PQstatus(handle) != CONNECTION_BAD else { throw PostgresFailure(connecting: connection.errorMessage) }
            let deadline = PostgresStateDatabase.networkClock.now().adding(timeout)
            // As libpq's manual says: poll as if the last answer asked to write, until it is done.
            var state = PGRES_POLLING_WRITING
            while true {
                switch state {
                case PGRES_POLLING_OK:
                    return connection
                case PGRES_POLLING_FAILED:
                    throw PostgresFailure(connecting: connection.errorMessage)
                case PGRES_POLLING_READING, PGRES_POLLING_WRITING:
                    let ready = connection.waitForSocket(reading: state == PGRES_POLLING_READING, until: deadline)
                    guard ready else {
                        connection.close()
                        throw PostgresFailure(
                            reason: "cannot connect: no answer within the connect timeout; is the server reachable?", losesConnection: true,
                            isUnavailable: true, timedOut: true)
                    }
                default:
                    break
                }
                state = PQconnectPoll(handle)
            }
        }

        /// Runs one statement and waits for its whole answer.
        ///
        /// - Parameters:
        ///   - sql: The statement, with `$1`, `$2`, … for the values.
        ///   - values: The values, as text of the type each names (`bigint`, `double precision`, `text`).
        ///   - timeout: How long the answer may take; after it the connection is closed.
        /// - Throws: ``PostgresFailure``: the server's error with its SQLSTATE, a lost
        ///   connection, or no answer in time.
        func query(_ sql: String, _ values: [PostgresStatement.Value] = [], timeout: Duration) throws(PostgresFailure) -> Answer {
            guard let handle, PQstatus(handle) == CONNECTION_OK else {
                throw PostgresFailure(reason: "the connection to the server was lost", losesConnection: true, isUnavailable: true)
            }
            let sent = Self.withCStrings(values.map(\.text)) { texts in
                let types = values.map(\.type)
                return PQsendQueryParams(handle, sql, Int32(values.count), types, texts, nil, nil, 0)
            }
            guard sent == 1 else { throw lostConnection() }
            let deadline = PostgresStateDatabase.networkClock.now().adding(timeout)
            // The statement may not all be sent at once.
            while true {
                let flushed = PQflush(handle)
                if flushed == 0 { break }
                guard flushed == 1 else { throw lostConnection() }
                guard waitForSocket(reading: false, until: deadline) else { throw timedOut(after: timeout) }
                // A full send buffer may wait on the server's answers: read what came.
                guard PQconsumeInput(handle) == 1 else { throw lostConnection() }
            }
            var answer = Answer()
            var failure: PostgresFailure?
            while true {
                while PQisBusy(handle) == 1 {
                    guard waitForSocket(reading: true, until: deadline) else { throw timedOut(after: timeout) }
                    guard PQconsumeInput(handle) == 1 else { throw lostConnection() }
                }
                guard let result = PQgetResult(handle) else { break }
                defer { PQclear(result) }
                switch PQresultStatus(result) {
                case PGRES_TUPLES_OK:
                    answer = try Self.answer(of: result)
                    answer.changedRows = Int(String(cString: PQcmdTuples(result))) ?? answer.rows.count
                case PGRES_COMMAND_OK:
                    answer.changedRows = Int(String(cString: PQcmdTuples(result))) ?? 0
                case PGRES_EMPTY_QUERY:
                    break
                case PGRES_FATAL_ERROR, PGRES_NONFATAL_ERROR:
                    failure = failure ?? PostgresFailure(result: result, connectionLost: PQstatus(handle) != CONNECTION_OK)
                default:
                    failure = failure ?? PostgresFailure(reason: "the server answered with a \(String(cString: PQresStatus(PQresultStatus(result))))")
                }
            }
            if let failure { throw failure }
            return answer
        }

        /// The rows of a result, each value read by its column's type.
        private static func answer(of result: OpaquePointer) throws(PostgresFailure) -> Answer {
            let columnCount = PQnfields(result)
            let rowCount = PQntuples(result)
            let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
            let types = (0..<columnCount).map { PQftype(result, $0) }
            var rows: [[SQLValue]] = []
            rows.reserveCapacity(Int(rowCount))
            for row in 0..<rowCount {
                var values: [SQLValue] = []
                values.reserveCapacity(Int(columnCount))
                for column in 0..<columnCount {
                    if PQgetisnull(result, row, column) == 1 {
                        values.append(.null)
                        continue
                    }
                    let text = String(cString: PQgetvalue(result, row, column))
                    guard let value = value(text, type: types[Int(column)]) else {
                        throw PostgresFailure(
                            reason:
                                "cannot read column '\(columns[Int(column)])' (\(text)): cast it to bigint, double precision or text in the query")
                    }
                    values.append(value)
                }
                rows.append(values)
            }
            return Answer(columns: columns, rows: rows)
        }

        /// A column's value from its text: integers (and `oid`), reals (and `numeric`),
        /// booleans as 0 or 1, times and dates as seconds since 1970, nothing for `void`; other
        /// types as their text. `nil` when the text does not read as its type.
        static func value(_ text: String, type: Oid) -> SQLValue? {
            switch type {
            case 20, 21, 23, 26:  // bigint, smallint, integer, oid
                return Int64(text).map(SQLValue.integer)
            case 700, 701, 1700:  // real, double precision, numeric
                return Double(text).map(SQLValue.real)
            case 16:  // boolean
                return .bool(text == "t")
            case 1082, 1114, 1184:  // date, timestamp, timestamp with time zone
                return PostgresTime.seconds(text).map(SQLValue.real)
            case 2278:  // void
                return .null
            default:
                return .text(text)
            }
        }

        // MARK: Waiting

        /// Waits until the socket can be read (or written), or the deadline passes; `true` when it can.
        private func waitForSocket(reading: Bool, until deadline: Date) -> Bool {
            guard let handle else { return false }
            let socket = PQsocket(handle)
            guard socket >= 0 else { return true }
            while true {
                // Once the deadline has passed the socket is still looked at once: a process that
                // was paused (SIGSTOP) past it may find its answer there, come while it slept.
                let left = max(0, deadline.timeIntervalSince(PostgresStateDatabase.networkClock.now()))
                var descriptor = pollfd(fd: socket, events: Int16(reading ? POLLIN : POLLOUT), revents: 0)
                let ready = poll(&descriptor, 1, Int32(min(left * 1000, 60_000).rounded(.up)))
                if ready == 0 && left == 0 { return false }
                // An error or a hang-up is ready too: libpq reads what it means.
                if ready > 0 { return true }
                if ready < 0 && errno != EINTR { return true }
            }
        }

        /// Closes a connection whose answer did not come in time.
        private func timedOut(after timeout: Duration) -> PostgresFailure {
            close()
            return PostgresFailure(
                reason: "no answer within \(timeout.components.seconds) seconds", losesConnection: true, isUnavailable: true, timedOut: true)
        }

        /// The failure of a connection that libpq found broken.
        private func lostConnection() -> PostgresFailure {
            PostgresFailure(reason: "the connection to the server was lost: \(errorMessage)", losesConnection: true, isUnavailable: true)
        }

        /// libpq's last message for the connection, on one line.
        private var errorMessage: String {
            guard let handle, let message = PQerrorMessage(handle) else { return "" }
            return String(cString: message).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(
                separator: " ")
        }

        // MARK: C strings

        /// A value of the `options` setting, with its spaces and backslashes escaped.
        private static func escapedOption(_ value: String) -> String {
            value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: " ", with: "\\ ")
        }

        /// Calls `body` with the names and the values as null-terminated arrays of C strings.
        private static func withCStrings<Result>(
            _ pairs: [(String, String)],
            _ body: (UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<UnsafePointer<CChar>?>) -> Result
        ) -> Result {
            withCStrings(pairs.map(\.0)) { names in
                withCStrings(pairs.map(\.1)) { values in body(names, values) }
            }
        }

        /// Calls `body` with the strings as a null-terminated array of C strings.
        private static func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
            let copies = strings.map { UnsafePointer(strdup($0)) } + [nil]
            defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
            return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
        }
    }

    /// Reads the ISO dates and times a session in `DateStyle=ISO` and `TimeZone=UTC` writes:
    /// `2026-12-04`, `2026-12-04 19:34:01.123456`, `2026-12-04 19:34:01.5+00`, and `infinity`.
    enum PostgresTime {
        private static let utc: Calendar = {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return calendar
        }()

        /// Seconds since 1970, or `nil` for text of another form.
        static func seconds(_ text: String) -> Double? {
            if text == "infinity" { return .infinity }
            if text == "-infinity" { return -.infinity }
            let bytes = Array(text.utf8)
            var index = 0
            func number(_ digits: Int) -> Int? {
                guard index + digits <= bytes.count else { return nil }
                var value = 0
                for byte in bytes[index..<(index + digits)] {
                    guard byte >= 0x30 && byte <= 0x39 else { return nil }
                    value = value * 10 + Int(byte - 0x30)
                }
                index += digits
                return value
            }
            func skip(_ character: Character) -> Bool {
                guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
                index += 1
                return true
            }
            guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2) else { return nil }
            guard let date = utc.date(from: DateComponents(year: year, month: month, day: day)) else { return nil }
            var seconds = date.timeIntervalSince1970
            guard skip(" ") else { return index == bytes.count ? seconds : nil }
            guard let hour = number(2), skip(":"), let minute = number(2), skip(":"), let second = number(2) else { return nil }
            seconds += Double(hour * 3600 + minute * 60 + second)
            if skip(".") {
                var scale = 0.1
                while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
                    seconds += Double(bytes[index] - 0x30) * scale
                    scale /= 10
                    index += 1
                }
            }
            if index < bytes.count {
                // An offset from UTC: +00, -05:30.
                let sign: Double = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                guard skip("+") || skip("-"), let hours = number(2) else { return nil }
                let minutes = skip(":") ? number(2) ?? 0 : 0
                seconds -= sign * Double(hours * 3600 + minutes * 60)
            }
            return index == bytes.count ? seconds : nil
        }
    }
#endif
