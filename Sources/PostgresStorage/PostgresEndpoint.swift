#if PostgreSQL
    import Foundation
    import StateStorage

    /// Where a PostgreSQL database is and how to log in, read from a URL:
    /// `postgres://user:password@host:port/database`, `postgresql://…`, and for a Unix socket
    /// `postgres://user@/database?host=/run/postgresql` (the socket is `<host>/.s.PGSQL.<port>`).
    ///
    /// Query parameters: `host` (a socket folder, or a host name), `port`, `user`, `password`,
    /// `sslmode` (`disable`, `allow`, `prefer`, `require`, `verify-ca`, `verify-full`),
    /// `application_name`. A missing user is the login name, a missing database the user's name,
    /// a missing password `PGPASSWORD`'s.
    struct PostgresEndpoint: Sendable {
        var host: String
        var port: Int
        /// The folder of the Unix socket (`<folder>/.s.PGSQL.<port>`), when it is one: libpq's `host`.
        var socketFolder: String?
        var user: String
        var password: String?
        var database: String
        var sslMode: String
        var applicationName: String

        /// The URL without its password, for messages.
        var location: String {
            let encodedUser = user.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? user
            if let folder = socketFolder {
                return "postgres://\(encodedUser)@/\(database)?host=\(folder)&port=\(port)"
            }
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "postgres://\(encodedUser)@\(shownHost):\(port)/\(database)"
        }

        /// Reads a URL.
        ///
        /// - Throws: ``StateDatabaseError`` naming the URL (without its password) and what is wrong.
        init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
            func invalid(_ reason: String) -> StateDatabaseError {
                StateDatabaseError(
                    location: Self.withoutPassword(url),
                    reason: "not a PostgreSQL URL: \(reason); write postgres://user:password@host:5432/database")
            }
            guard let schemeEnd = url.range(of: "://") else { throw invalid("no scheme") }
            let scheme = url[..<schemeEnd.lowerBound].lowercased()
            guard scheme == "postgres" || scheme == "postgresql" else {
                throw invalid("the scheme is '\(scheme)', not postgres or postgresql")
            }
            var rest = Substring(url[schemeEnd.upperBound...])
            var query: [String: String] = [:]
            if let mark = rest.firstIndex(of: "?") {
                for pair in rest[rest.index(after: mark)...].split(separator: "&") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                    let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
                    query[name] = value
                }
                rest = rest[..<mark]
            }
            var path = ""
            if let slash = rest.firstIndex(of: "/") {
                path = String(rest[rest.index(after: slash)...]).removingPercentEncoding ?? ""
                rest = rest[..<slash]
            }
            var userInfo: Substring?
            if let at = rest.lastIndex(of: "@") {
                userInfo = rest[..<at]
                rest = rest[rest.index(after: at)...]
            }
            var hostText = String(rest)
            var portText: String?
            if hostText.hasPrefix("[") {
                guard let close = hostText.firstIndex(of: "]") else { throw invalid("an IPv6 address without its closing bracket") }
                let after = hostText[hostText.index(after: close)...]
                if after.hasPrefix(":") { portText = String(after.dropFirst()) }
                hostText = String(hostText[hostText.index(after: hostText.startIndex)..<close])
            } else if let colon = hostText.lastIndex(of: ":") {
                portText = String(hostText[hostText.index(after: colon)...])
                hostText = String(hostText[..<colon])
            }
            var user: String?
            var password: String?
            if let userInfo {
                let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                user = String(parts[0]).removingPercentEncoding
                if parts.count > 1 { password = String(parts[1]).removingPercentEncoding }
            }
            if let value = query["user"] { user = value }
            if let value = query["password"] { password = value }
            if let value = query["port"] { portText = value }
            if let value = query["dbname"] { path = value }
            if let value = query["host"] { hostText = value }
            let port: Int
            if let portText, !portText.isEmpty {
                guard let number = Int(portText), (1...65535).contains(number) else {
                    throw invalid("the port '\(portText)' is not a number from 1 to 65535")
                }
                port = number
            } else {
                port = 5432
            }
            let login = user.flatMap { $0.isEmpty ? nil : $0 } ?? Self.loginName()
            self.host = hostText.isEmpty ? "localhost" : hostText
            self.port = port
            self.user = login
            self.password = password ?? environment["PGPASSWORD"]
            self.database = path.isEmpty ? login : path
            // Without a trailing slash, as the URL shows it.
            let folder = hostText.count > 1 && hostText.hasSuffix("/") ? String(hostText.dropLast()) : hostText
            self.socketFolder = hostText.hasPrefix("/") ? folder : nil
            self.sslMode = query["sslmode"] ?? "disable"
            self.applicationName = query["application_name"] ?? "shortcuts"
            guard ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"].contains(sslMode) else {
                throw invalid("sslmode '\(sslMode)' is not one of disable, allow, prefer, require, verify-ca, verify-full")
            }
        }

        /// A URL with its password replaced by nothing, for messages about a URL that cannot be read.
        static func withoutPassword(_ url: String) -> String {
            var shown = url.replacingOccurrences(of: #"([?&]password=)[^&]*"#, with: "$1…", options: .regularExpression)
            guard let schemeEnd = shown.range(of: "://") else { return shown }
            let authorityEnd = shown[schemeEnd.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" }) ?? shown.endIndex
            if let at = shown[schemeEnd.upperBound..<authorityEnd].lastIndex(of: "@"),
                let colon = shown[schemeEnd.upperBound..<at].firstIndex(of: ":")
            {
                shown.replaceSubrange(colon..<at, with: "")
            }
            return shown
        }

        private static func loginName() -> String {
            if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
            return ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        }
    }
#endif
