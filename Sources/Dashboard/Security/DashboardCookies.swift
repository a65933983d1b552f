#if Web
    import Hummingbird

    /// The dashboard's two cookies: the session of a browser signed in with the token, and the
    /// browser's form token. Both are `HttpOnly` (no script reads them) and `SameSite=Strict` (no
    /// other site's page sends them), for the whole site.
    enum DashboardCookies {
        static let session = "shortcuts_session"
        static let formToken = "shortcuts_csrf"

        static func session(_ value: String) -> Cookie {
            Cookie(name: session, value: value, maxAge: Int(SessionStore.lifetime), path: "/", httpOnly: true, sameSite: .strict)
        }

        static func endedSession() -> Cookie {
            Cookie(name: session, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .strict)
        }

        static func formToken(_ value: String) -> Cookie {
            Cookie(name: formToken, value: value, path: "/", httpOnly: true, sameSite: .strict)
        }
    }
#endif
