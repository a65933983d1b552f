import Dashboard
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
}
