import Foundation
import IntentKit

extension NotifyApp {
    /// Shows a desktop notification, or, without a desktop, writes it to the run's trace and
    /// the log.
    ///
    /// With a session bus (`DBUS_SESSION_BUS_ADDRESS`) whose notification server answers, the
    /// notification is shown and its id returned. Without one — the daemon under systemd, a
    /// server over SSH, no notification server running — the run does not fail: the step's
    /// dialog says "Notification (no desktop): <title> — <body>" (the trace records it and the
    /// daemon logs it) and one line saying why goes to standard error, and the step returns
    /// nothing.
    ///
    /// ```yaml
    /// - perform: Notify.Show
    ///   with: { title: Disk almost full, body: "/ is ${disk.diskUsedPercent}% used", urgency: critical }
    /// ```
    public struct Show: AppIntent {
        public static let title: LocalizedStringResource = "Show Notification"
        public static let description = IntentDescription(
            "Shows a desktop notification; without a desktop, writes it to the run's trace and the log.")

        @Parameter(title: "Title")
        public var title: String

        @Parameter(title: "Body")
        public var body: String?

        @Parameter(title: "Urgency", default: .normal)
        public var urgency: Urgency

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Show \(\.$title)") {
                \.$body
                \.$urgency
            }
        }

        public func perform() async throws -> some IntentResult & ReturnsValue<Int?> & ProvidesDialog {
            let body = body ?? ""
            do {
                let id = try NotificationServer.notify(title: title, body: body, urgency: urgency.hintByte)
                return .result(value: id, dialog: "Showed the notification \(title).")
            } catch let error as DBusError {
                // Said once, in the dialog: a run shows it, its trace records it, a daemon logs it.
                let text = body.isEmpty ? title : "\(title) — \(body)"
                return .result(value: nil, dialog: "Notification (no desktop: \(error)): \(text)")
            }
        }
    }
}
