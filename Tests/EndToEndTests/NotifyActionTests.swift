import Foundation
import ShortcutsSystemTestSupport
import Testing

/// `Notify.Show` driven through the `shortcuts` binary: to a notification server on a private
/// session bus, and without a desktop, where the run succeeds and says where the notification went.
@Suite("Notify actions", .endToEnd)
struct NotifyActionTests {
    static let workflow = PackagePaths.fixture("notify-show.yaml")
    static let hasBus = SystemComponents.available(PrivateSessionBus.executable)

    /// The step's record in `runs show --json` of the home's only run.
    private func onlyStep(_ shortcuts: ShortcutsBinary) async throws -> [String: Any] {
        let listed = try await shortcuts.run(["runs", "list", "--json"])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        #expect(runs.count == 1 && runs.first?["status"] as? String == "succeeded")
        let shown = try await shortcuts.run(["runs", "show", try #require(runs.first?["id"] as? String), "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
        return try #require((document["steps"] as? [[String: Any]])?.first)
    }

    @Test(.enabled(if: hasBus, "needs dbus-daemon (apt install dbus)"))
    func theNotificationReachesTheServerOnTheSessionBusAndItsIdIsTheOutput() async throws {
        let bus = try PrivateSessionBus()
        let listener = try NotificationListener(address: bus.address)
        let shortcuts = try ShortcutsBinary()
        defer { try? FileManager.default.removeItem(at: shortcuts.home) }
        let result = try await shortcuts.run(
            ["run", Self.workflow, "--input", "title=Disk almost full", "--input", "body=/ is 93% used", "--input", "urgency=critical"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Showed the notification Disk almost full."))
        #expect(!result.error.contains("no desktop"))
        let received = listener.wait(forCount: 1)
        #expect(received == [.init(applicationName: "Shortcuts", title: "Disk almost full", body: "/ is 93% used", urgency: 2, id: 1)])
        let step = try await onlyStep(shortcuts)
        #expect(step["output"] as? Int == 1)
    }

    @Test func withoutASessionBusTheRunSucceedsAndTheTraceSaysWhereTheNotificationWent() async throws {
        let shortcuts = try ShortcutsBinary()
        defer { try? FileManager.default.removeItem(at: shortcuts.home) }
        let result = try await shortcuts.run(["run", Self.workflow, "--input", "urgency=low"], environment: ["DBUS_SESSION_BUS_ADDRESS": nil])
        #expect(result.status == 0)
        let dialog = "Notification (no desktop: DBUS_SESSION_BUS_ADDRESS is not set (no desktop session)): Backup done — 3 files copied"
        #expect(result.output.contains(dialog))
        #expect(result.error.isEmpty, "said once, in the dialog: \(result.error)")
        let step = try await onlyStep(shortcuts)
        #expect(step["dialog"] as? String == dialog)
        #expect(step["output"] == nil || step["output"] is NSNull)
    }

    @Test(.enabled(if: hasBus, "needs dbus-daemon (apt install dbus)"))
    func aBusThatIsNotThereOrHasNoNotificationServerDoesNotFailTheRun() async throws {
        let bus = try PrivateSessionBus()
        let missing = TemporaryFolder.unusedPath(prefix: "no-bus").path
        let cases = [
            ("unix:path=\(missing)", "cannot connect to the bus at 'unix:path=\(missing)': No such file or directory"),
            (bus.address, "org.freedesktop.DBus.Error.ServiceUnknown")
        ]
        for (address, reason) in cases {
            let shortcuts = try ShortcutsBinary()
            defer { try? FileManager.default.removeItem(at: shortcuts.home) }
            let result = try await shortcuts.run(["run", Self.workflow, "--input", "body="], environment: ["DBUS_SESSION_BUS_ADDRESS": address])
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output.contains("Notification (no desktop: \(reason)"), "\(result.output)")
            #expect(result.output.contains("): Backup done\n"), "\(result.output)")
            #expect(result.error.isEmpty, "\(result.error)")
        }
    }
}
