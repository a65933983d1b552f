import Foundation
import IntentKit

extension SystemApp {
    /// The host, its system, processors, memory, uptime, the disk that holds a path, and the
    /// battery, as one dictionary.
    ///
    /// | Key | Value |
    /// | --- | --- |
    /// | `hostName` | The host's name (`uname -n`). |
    /// | `osName`, `osVersion` | `NAME` and `VERSION_ID` of `/etc/os-release` (`Ubuntu`, `24.04`). |
    /// | `kernel`, `architecture` | `uname -sr` (`Linux 6.8.0-45-generic`) and `uname -m` (`x86_64`). |
    /// | `cpuCount` | Processors online. |
    /// | `memoryTotal`, `memoryAvailable` | Bytes, `MemTotal` and `MemAvailable` of `/proc/meminfo`. |
    /// | `uptime` | Seconds since boot, `/proc/uptime`. |
    /// | `diskPath` | The path measured, absolute. |
    /// | `diskTotal`, `diskFree`, `diskUsed` | Bytes of the file system holding `diskPath`; free is what an ordinary user may still write. |
    /// | `diskUsedPercent` | Used of used plus free, as `df` computes `Use%`, to one decimal. |
    /// | `battery` | `{percent, status}` of the first `/sys/class/power_supply/BAT*`, or null without one. |
    ///
    /// ```yaml
    /// - id: device
    ///   perform: System.DeviceDetails
    /// - if: { value: "${device.diskUsedPercent}", greaterThan: 90 }
    ///   then: [ { perform: Notify.Show, with: { title: Disk almost full } } ]
    /// ```
    public struct DeviceDetails: AppIntent {
        public static let title: LocalizedStringResource = "Get Device Details"
        public static let description = IntentDescription(
            "Gets the host name, system, kernel, processors, memory, uptime, the disk of a path and the battery.")

        @Parameter(title: "Path", default: "/")
        public var path: String

        public init() {}

        public static var parameterSummary: some ParameterSummary {
            Summary("Get the details of this device and the disk of \(\.$path)")
        }

        // The value is declared as any value, not `[String: IntentValue]`: a workflow's checker lets
        // `${device.diskUsedPercent}` through for any value, and finds the key when the step runs.
        public func perform() async throws -> some IntentResult & ReturnsValue<IntentValue> {
            let disk = try DeviceReadings.disk(holding: path)
            var details: [String: IntentValue] = [
                "cpuCount": .int(DeviceReadings.processorCount),
                "uptime": DeviceReadings.uptime.map(IntentValue.double) ?? .null,
                "battery": DeviceReadings.battery.map(IntentValue.dictionary) ?? .null
            ]
            let system = DeviceReadings.kernel
            details["hostName"] = .string(system.hostName)
            details["kernel"] = .string(system.kernel)
            details["architecture"] = .string(system.architecture)
            let release = DeviceReadings.operatingSystem
            details["osName"] = .string(release["NAME"] ?? system.name)
            details["osVersion"] = release["VERSION_ID"].map(IntentValue.string) ?? .null
            let memory = DeviceReadings.memory
            details["memoryTotal"] = memory["MemTotal"].map(IntentValue.int) ?? .null
            details["memoryAvailable"] = memory["MemAvailable"].map(IntentValue.int) ?? .null
            details["diskPath"] = .string(disk.path)
            details["diskTotal"] = .int(disk.total)
            details["diskFree"] = .int(disk.free)
            details["diskUsed"] = .int(disk.used)
            details["diskUsedPercent"] = .double(disk.usedPercent)
            return .result(value: IntentValue.dictionary(details))
        }

        /// Why the details could not be read.
        public enum Error: Swift.Error, CustomLocalizedStringResourceConvertible {
            case pathNotFound(path: String)
            case cannotMeasure(path: String, reason: String)

            public var localizedStringResource: LocalizedStringResource {
                switch self {
                case .pathNotFound(let path): "Cannot measure the disk of \(path): no file or folder is there."
                case .cannotMeasure(let path, let reason): "Cannot measure the disk of \(path): \(reason)."
                }
            }
        }
    }
}
