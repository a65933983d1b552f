import Foundation
import Testing

/// `System.DeviceDetails` driven through the `shortcuts` binary: a report of a disk, and a
/// missing path that fails the run with its name.
@Suite("System actions", .endToEnd)
struct SystemActionTests {
    static let workflow = PackagePaths.fixture("device-details.yaml")

    @Test func theDiskOfAPathIsReported() async throws {
        let shortcuts = try ShortcutsBinary()
        defer { try? FileManager.default.removeItem(at: shortcuts.home) }
        let result = try await shortcuts.run(["run", Self.workflow, "--input", "path=/tmp"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains(": /tmp is "), "\(result.output)")
        #expect(result.output.contains("% used"))
    }

    @Test func aMissingPathFailsTheRunAndIsNamed() async throws {
        let shortcuts = try ShortcutsBinary()
        defer { try? FileManager.default.removeItem(at: shortcuts.home) }
        let missing = TemporaryFolder.unusedPath(prefix: "no-such-disk").path
        let result = try await shortcuts.run(["run", Self.workflow, "--input", "path=\(missing)"])
        #expect(result.status == 1)
        #expect(
            result.error.contains(
                "device-details.yaml:8:14: error: System.DeviceDetails failed: Cannot measure the disk of \(missing): no file or folder is there."),
            "\(result.error)")
        let failed = try await shortcuts.run(["runs", "list", "--status", "failed"]).output.split(separator: "\n")
        #expect(failed.count == 2 && failed[1].hasSuffix("Disk report"))
    }
}
