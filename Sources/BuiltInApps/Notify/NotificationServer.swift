import Foundation

/// The desktop's notification server, `org.freedesktop.Notifications` on the session bus.
///
/// ```swift
/// let id = try NotificationServer.notify(title: "Backup done", body: "3 files", urgency: 1)
/// ```
package enum NotificationServer {
    /// The bus name, object path and interface of the server.
    package static let busName = "org.freedesktop.Notifications"
    package static let objectPath = "/org/freedesktop/Notifications"

    /// The application name notifications are sent with.
    package static let applicationName = "Shortcuts"

    /// The `Notify` call's arguments, `susssasa{sv}i`: application name, the id to replace (0,
    /// none), icon, summary, body, actions (none), hints (`urgency` as a byte), and expiry
    /// (-1, the server's default).
    ///
    /// - Parameters:
    ///   - title: The summary.
    ///   - body: The body text.
    ///   - urgency: 0 low, 1 normal, 2 critical.
    /// - Returns: The call.
    package static func notifyCall(title: String, body: String, urgency: UInt8) -> DBusMessage {
        .methodCall(
            destination: busName, path: objectPath, interface: busName, member: "Notify",
            body: [
                .string(applicationName), .uint32(0), .string(""), .string(title), .string(body),
                .array(elementSignature: "s", []),
                .array(elementSignature: "{sv}", [.dictionaryEntry(.string("urgency"), .variant(.byte(urgency)))]),
                .int32(-1)
            ])
    }

    /// Shows a notification through the session bus.
    ///
    /// - Parameters:
    ///   - title: The summary.
    ///   - body: The body text.
    ///   - urgency: 0 low, 1 normal, 2 critical.
    ///   - environment: Where `DBUS_SESSION_BUS_ADDRESS` is read.
    /// - Returns: The id the server gave the notification.
    /// - Throws: ``DBusError`` when there is no bus, no server owns the name, or it fails.
    package static func notify(
        title: String, body: String, urgency: UInt8, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> Int {
        let bus = try DBusConnection.sessionBus(environment: environment)
        let reply = try bus.call(notifyCall(title: title, body: body, urgency: urgency))
        guard let id = reply.body.first?.integer else {
            throw DBusError.malformed("the Notify reply has the signature '\(reply.signature)', not 'u'")
        }
        return id
    }
}
