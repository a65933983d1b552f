import Foundation
import ShortcutsSystemTestSupport
import Testing

@testable import BuiltInApps

/// Notifications through a real bus: a private `dbus-daemon --session` with a listener that
/// owns `org.freedesktop.Notifications`, and the ways there is no desktop to show them.
@Suite struct NotificationServerTests {
    static let hasBus = SystemComponents.available(PrivateSessionBus.executable)

    @Test(.enabled(if: hasBus, "needs dbus-daemon (apt install dbus)"))
    func theTitleBodyAndUrgencyArriveAndTheServersIdComesBack() throws {
        let bus = try PrivateSessionBus()
        let listener = try NotificationListener(address: bus.address)
        let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        let first = try NotificationServer.notify(title: "Backup done", body: "3 files — ok", urgency: 2, environment: environment)
        let second = try NotificationServer.notify(title: "Low", body: "", urgency: 0, environment: environment)
        let received = listener.wait(forCount: 2)
        #expect(received.count == 2)
        #expect(received.first == .init(applicationName: "Shortcuts", title: "Backup done", body: "3 files — ok", urgency: 2, id: 1))
        #expect(received.last?.urgency == 0)
        #expect(first == 1 && second == 2)
    }

    @Test(.enabled(if: hasBus, "needs dbus-daemon (apt install dbus)"))
    func theClientAuthenticatesIsNamedByTheBusAndReadsReplies() throws {
        let bus = try PrivateSessionBus()
        let connection = try DBusConnection(address: bus.address)
        #expect(connection.uniqueName.hasPrefix(":1."))
        let reply = try connection.call(
            .methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameHasOwner",
                body: [.string(connection.uniqueName)]))
        #expect(reply.body == [.boolean(true)])
        let id = try connection.call(
            .methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetId"))
        let text = try #require(id.body.first?.text)
        #expect(text.count == 32 && text.allSatisfy(\.isHexDigit))
    }

    @Test(.enabled(if: hasBus, "needs dbus-daemon (apt install dbus)"))
    func aBusWhereNoServerOwnsTheNameSaysSo() throws {
        let bus = try PrivateSessionBus()
        #expect {
            try NotificationServer.notify(title: "T", body: "", urgency: 1, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        } throws: { error in
            guard case .remote(let name, _) = error as? DBusError else { return false }
            return name == "org.freedesktop.DBus.Error.ServiceUnknown"
        }
    }

    @Test func noBusOrABusThatIsNotThereFailsWithItsReason() throws {
        #expect(throws: DBusError.noSessionBus) { try NotificationServer.notify(title: "T", body: "", urgency: 1, environment: [:]) }
        let missing = TemporaryFolder.unusedPath(prefix: "no-bus").path
        #expect {
            try NotificationServer.notify(title: "T", body: "", urgency: 1, environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(missing)"])
        } throws: { error in
            String(describing: error) == "cannot connect to the bus at 'unix:path=\(missing)': No such file or directory"
        }
    }
}
