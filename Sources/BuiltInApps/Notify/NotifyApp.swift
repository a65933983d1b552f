import IntentKit

/// Desktop notifications: `Notify.Show`.
///
/// ```yaml
/// - perform: Notify.Show
///   with: { title: Backup done, body: "${count} files copied", urgency: low }
/// ```
public enum NotifyApp {
    /// The app, as `shortcuts list` shows it.
    public static let app = IntentApp(name: "Notify", intents: [Show.self], strings: BuiltInStrings.catalog(table: "Notify"))

    /// How urgent a notification is: the `urgency` hint of the desktop notifications
    /// specification (a desktop may keep a critical one on screen until it is dismissed).
    public enum Urgency: String, Sendable, Codable, AppEnum {
        case low
        case normal
        case critical

        public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Urgency"
        public static let caseDisplayRepresentations: [Urgency: DisplayRepresentation] = [
            .low: "Low",
            .normal: "Normal",
            .critical: "Critical"
        ]

        /// The hint's byte: 0 low, 1 normal, 2 critical.
        var hintByte: UInt8 {
            switch self {
            case .low: 0
            case .normal: 1
            case .critical: 2
            }
        }
    }
}
