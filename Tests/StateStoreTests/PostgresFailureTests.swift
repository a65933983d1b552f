#if PostgreSQL
    import Testing

    @testable import PostgresStorage

    /// How a failed connection attempt is read from libpq's message, which carries no SQLSTATE:
    /// the server's refusals of a login or a database are final, anything else is unavailable, to
    /// be tried again. The messages are those of libpq 15 and PostgreSQL 15.
    @Suite("PostgreSQL connection failures")
    struct PostgresFailureTests {
        private let prefix = #"connection to server at "127.0.0.1", port 5432 failed: "#

        @Test("A server starting, stopping, recovering or full, and the network's failures, are unavailable")
        func unavailable() {
            for message in [
                "FATAL:  the database system is not yet accepting connections DETAIL:  Consistent recovery state has not been yet reached.",
                "FATAL:  the database system is starting up", "FATAL:  the database system is shutting down",
                "FATAL:  sorry, too many clients already", "Connection refused Is the server running on that host and accepting TCP/IP connections?"
            ] {
                let failure = PostgresFailure(connecting: prefix + message)
                #expect(failure.isUnavailable && failure.losesConnection && failure.sqlState == nil, "\(message)")
                #expect(failure.reason.hasPrefix("cannot connect ("), "\(failure.reason)")
            }
        }

        @Test("A refused login, a missing role or database and a refused permission are final, with their SQLSTATE")
        func refusals() {
            let cases = [
                (#"FATAL:  password authentication failed for user "ada""#, "28P01"),
                (#"FATAL:  no pg_hba.conf entry for host "10.0.0.2", user "ada", database "x", no encryption"#, "28P01"),
                (#"FATAL:  role "ada" does not exist"#, "28P01"), (#"FATAL:  database "nowhere" does not exist"#, "3D000"),
                (#"FATAL:  permission denied for database "x""#, "42501")
            ]
            for (message, state) in cases {
                let failure = PostgresFailure(connecting: prefix + message)
                #expect(failure.sqlState == state, "\(message)")
                #expect(!failure.isUnavailable, "\(message)")
                #expect(failure.reason == String(message.dropFirst("FATAL:  ".count)))
            }
        }
    }
#endif
