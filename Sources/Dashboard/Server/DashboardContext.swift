#if Web
    import Hummingbird
    import NIOCore

    /// What the dashboard knows of one request besides the request itself: who sent it, the
    /// browser's form token, the form it posted, and whether it is signed in.
    struct DashboardContext: RequestContext {
        var coreContext: CoreRequestContextStorage
        /// The client's IP address, for the throttle and the log.
        let remoteAddress: String
        /// The form token of this browser (its `shortcuts_csrf` cookie, or a new one set with the
        /// response), which forms carry in their `csrf` field.
        var csrfToken = ""
        /// The fields of a posted form, read and checked by ``CSRFMiddleware``.
        var form = FormFields()
        /// Whether the request carried the token or a session (always `true` without a token).
        var isSignedIn = false
        /// Whether the dashboard has a token, so pages offer to sign out.
        var hasToken = false
        /// The tool's name, for the commands pages suggest (``DashboardConfiguration/commandName``).
        var commandName = "shortcuts"

        init(source: ApplicationRequestContextSource) {
            coreContext = .init(source: source)
            remoteAddress = source.channel.remoteAddress?.ipAddress ?? "local"
        }
    }
#endif
