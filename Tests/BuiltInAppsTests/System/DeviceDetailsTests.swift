import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import Testing

@testable import BuiltInApps

/// `System.DeviceDetails` reads the machine it runs on: its figures are checked against the
/// programs that print the same ones (`df`, `uname`, `nproc`).
@Suite struct DeviceDetailsTests {
    private func perform(_ arguments: [String: IntentValue] = [:]) async throws -> [String: IntentValue] {
        let performer = IntentPerformer(catalog: IntentCatalog(apps: [SystemApp.app]))
        let outcome = try await performer.perform("System.DeviceDetails", arguments: arguments)
        guard case .dictionary(let details) = outcome.value else { throw TestFailure("not a dictionary: \(String(describing: outcome.value))") }
        return details
    }

    private func output(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func everyDocumentedKeyIsThereAndAgreesWithTheSystemsOwnPrograms() async throws {
        let folder = try TemporaryFolder.make(prefix: "device-details")
        defer { try? FileManager.default.removeItem(at: folder) }
        let details = try await perform(["path": .string(folder.path)])
        let keys: Set<String> = [
            "hostName", "osName", "osVersion", "kernel", "architecture", "cpuCount", "memoryTotal", "memoryAvailable", "uptime",
            "diskPath", "diskTotal", "diskFree", "diskUsed", "diskUsedPercent", "battery"
        ]
        #expect(Set(details.keys) == keys)
        #expect(details["hostName"] == .string(try output("uname", "-n")))
        #expect(details["kernel"] == .string(try output("uname", "-sr")))
        #expect(details["architecture"] == .string(try output("uname", "-m")))
        let online = Int(try output("getconf", "_NPROCESSORS_ONLN")) ?? -1
        #expect(details["cpuCount"] == .int(online))
        #expect(details["diskPath"] == .string(folder.standardizedFileURL.path))
        let dfSize = Int(try output("df", "-B1", "--output=size", folder.path).split(separator: "\n").last.map(String.init) ?? "")
        #expect(details["diskTotal"] == .int(dfSize ?? -1))
        guard case .int(let total) = details["memoryTotal"], case .int(let available) = details["memoryAvailable"],
            case .int(let used) = details["diskUsed"], case .int(let free) = details["diskFree"],
            case .double(let percent) = details["diskUsedPercent"], case .double(let uptime) = details["uptime"]
        else { throw TestFailure("unexpected kinds: \(details)") }
        #expect(total > 0 && available > 0 && available <= total)
        #expect(used >= 0 && free >= 0 && (0...100).contains(percent) && uptime > 0)
        if case .string(let name) = details["osName"] {
            #expect(name == DeviceReadings.operatingSystem["NAME"] ?? "Linux")
        }
    }

    @Test func theDiskOfTheRootIsMeasuredWithoutAPath() async throws {
        let details = try await perform()
        #expect(details["diskPath"] == .string("/"))
    }

    @Test func aMissingPathIsNamedInTheError() async throws {
        let missing = TemporaryFolder.unusedPath(prefix: "no-such-disk").path
        let error = await #expect(throws: (any Error).self) { try await perform(["path": .string(missing)]) }
        #expect(
            error.map { String(describing: $0) }?.contains("Cannot measure the disk of \(missing): no file or folder is there.") == true,
            "\(String(describing: error))")
    }

    @Test func osReleaseValuesAreUnquoted() {
        let keys = DeviceReadings.osRelease("# comment\nNAME=\"Debian GNU/Linux\"\nVERSION_ID='12'\nID=debian\n")
        #expect(keys == ["NAME": "Debian GNU/Linux", "VERSION_ID": "12", "ID": "debian"])
    }

    @Test func theFirstBatteryIsReadAndNoBatteryIsNil() throws {
        let folder = try TemporaryFolder.make(prefix: "power-supply")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(DeviceReadings.battery(in: folder.path) == nil)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("AC"), withIntermediateDirectories: true)
        #expect(DeviceReadings.battery(in: folder.path) == nil)
        let battery = folder.appendingPathComponent("BAT0")
        try FileManager.default.createDirectory(at: battery, withIntermediateDirectories: true)
        try "87\n".write(to: battery.appendingPathComponent("capacity"), atomically: true, encoding: .utf8)
        try "Discharging\n".write(to: battery.appendingPathComponent("status"), atomically: true, encoding: .utf8)
        #expect(DeviceReadings.battery(in: folder.path) == ["name": .string("BAT0"), "percent": .int(87), "status": .string("Discharging")])
    }
}

/// A failure with its reason, for `guard … else { throw }` in tests.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
