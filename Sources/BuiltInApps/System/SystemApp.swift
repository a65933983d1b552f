import IntentKit

/// The machine the run is on: `System.DeviceDetails`.
///
/// ```yaml
/// - id: device
///   perform: System.DeviceDetails
///   with: { path: /home }
/// - show: "${device.hostName}: ${device.diskUsedPercent}% of /home used"
/// ```
public enum SystemApp {
    /// The app, as `shortcuts list` shows it.
    public static let app = IntentApp(name: "System", intents: [DeviceDetails.self], strings: BuiltInStrings.catalog(table: "System"))
}
