/// Whether this build of Shortcuts can serve the web dashboard.
///
/// The dashboard is the package trait `Web`, off by default so that a first build stays quick:
/// `swift build --traits Web` includes it (Hummingbird, Mustache and Prometheus).
///
/// ```swift
/// guard DashboardSupport.isBuiltIn else { throw CommandLineError("no dashboard", help: [DashboardSupport.rebuildHint]) }
/// ```
public enum DashboardSupport {
    /// `true` when built with the `Web` trait.
    public static var isBuiltIn: Bool {
        #if Web
            true
        #else
            false
        #endif
    }

    /// How to get a build with the dashboard, for messages.
    public static let rebuildHint = "build shortcuts with the web dashboard: swift build --traits Web"
}
