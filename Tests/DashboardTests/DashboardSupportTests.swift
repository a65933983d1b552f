import Dashboard
import ShortcutsTestSupport
import Testing

@Suite("Dashboard support")
struct DashboardSupportTests {
    @Test("The build says whether it serves the dashboard, and how to get a build that does")
    func rebuildHint() {
        #if Web
            #expect(DashboardSupport.isBuiltIn)
        #else
            #expect(!DashboardSupport.isBuiltIn)
        #endif
        #expect(DashboardSupport.rebuildHint.contains("--traits Web"))
    }

    /// The pages, webhooks and live updates are tested only in a build with the dashboard; in
    /// another, this says so (and fails where every component is required).
    @Test(
        "The dashboard's pages and webhooks are tested in this build",
        .enabled(
            if: DashboardSupport.isBuiltIn || SystemComponents.isRequired,
            "the dashboard's pages, webhooks and live updates need a build with the web dashboard: swift test --traits Web"))
    func builtWithTheDashboard() {
        #expect(DashboardSupport.isBuiltIn, "built without the Web trait: swift test --traits Web")
    }
}
