import BuiltInApps
import Foundation
import ShortcutsTestSupport
import Synchronization

/// A notification server on a test's bus: it owns `org.freedesktop.Notifications`, records
/// every `Notify` call and answers it with the next id (1, 2, …), as a desktop would.
///
/// It answers on a thread of its own, so the program under test can call it while the test
/// waits.
///
/// ```swift
/// let bus = try PrivateSessionBus()
/// let listener = try NotificationListener(address: bus.address)
/// // … something notifies …
/// let received = listener.wait(forCount: 1)
/// #expect(received.first?.title == "Backup done")
/// ```
public final class NotificationListener: Sendable {
    /// One `Notify` call as it arrived.
    public struct Notification: Sendable, Equatable {
        public var applicationName: String
        public var title: String
        public var body: String
        /// The `urgency` hint's byte (0 low, 1 normal, 2 critical), or `nil` without one.
        public var urgency: Int?
        /// The id the listener answered with.
        public var id: Int

        public init(applicationName: String, title: String, body: String, urgency: Int?, id: Int) {
            self.applicationName = applicationName
            self.title = title
            self.body = body
            self.urgency = urgency
            self.id = id
        }
    }

    private let received = Mutex<[Notification]>([])
    private let arrived = ChangeNotice()
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Connects to the bus at `address`, takes the notification server's name and starts
    /// answering.
    ///
    /// - Throws: When the bus cannot be reached or another connection owns the name.
    public init(address: String) throws {
        nonisolated(unsafe) let connection = try DBusConnection(address: address)
        let reply = try connection.call(
            .methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "RequestName",
                body: [.string(NotificationServer.busName), .uint32(4)]))
        guard reply.body.first?.integer == 1 else {
            throw ComponentError(message: "the listener could not own \(NotificationServer.busName): RequestName answered \(reply.body)")
        }
        connection.timeout = 0.1
        let thread = Thread { [self] in
            answer(on: connection)
            finished.signal()
        }
        thread.start()
    }

    /// The notifications received so far.
    public var notifications: [Notification] { received.withLock { $0 } }

    /// Waits until `count` notifications have arrived, woken by each arrival.
    ///
    /// - Returns: The notifications received by then.
    public func wait(forCount count: Int) -> [Notification] {
        _ = try? eventuallyBlocking(watching: [.notice(arrived)]) { notifications.count >= count }
        return notifications
    }

    /// Stops answering and releases the connection.
    public func stop() {
        if !stopped.exchange(true, ordering: .sequentiallyConsistent) { finished.wait() }
    }

    deinit {
        stop()
    }

    private func answer(on connection: DBusConnection) {
        while !stopped.load(ordering: .sequentiallyConsistent) {
            let message: DBusMessage
            do {
                message = try connection.receive()
            } catch DBusError.timedOut {
                continue
            } catch {
                return
            }
            guard message.kind == .methodCall else { continue }
            if message.member == "Notify", message.body.count == 8 {
                let hints = message.body[6].dictionaryEntries ?? []
                var urgency: Int?
                if let hint = hints.first(where: { $0.key.text == "urgency" }), case .variant(let value) = hint.value { urgency = value.integer }
                let id = received.withLock { list in
                    list.append(
                        Notification(
                            applicationName: message.body[0].text ?? "", title: message.body[3].text ?? "",
                            body: message.body[4].text ?? "", urgency: urgency, id: list.count + 1))
                    return list.count
                }
                arrived.post()
                _ = try? connection.send(message.methodReturn(body: [.uint32(UInt32(id))]))
            } else {
                _ = try? connection.send(
                    message.errorReply(name: "org.freedesktop.DBus.Error.UnknownMethod", text: "No method \(message.member ?? "") here"))
            }
        }
    }
}
