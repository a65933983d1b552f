import Foundation
import ShortcutsSystemTestSupport
import Testing

/// `Clipboard.Set` and `Clipboard.Get` driven through the `shortcuts` binary: a failed run that
/// says what to install without a graphical session, and a round trip through xclip on a
/// virtual X display.
@Suite("Clipboard actions", .endToEnd)
struct ClipboardActionTests {
    static let workflow = PackagePaths.fixture("clipboard-round-trip.yaml")

    @Test func withoutAGraphicalSessionTheRunFailsAndSaysWhatIsNeeded() async throws {
        let shortcuts = try ShortcutsBinary()
        defer { try? FileManager.default.removeItem(at: shortcuts.home) }
        let result = try await shortcuts.run(["run", Self.workflow], environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(result.status == 1)
        #expect(result.error.contains("clipboard-round-trip.yaml:7:14: error: "), "\(result.error)")
        #expect(result.error.contains("The clipboard needs a graphical session: neither WAYLAND_DISPLAY nor DISPLAY is set"))
        let failed = try await shortcuts.run(["runs", "list", "--status", "failed"]).output.split(separator: "\n")
        #expect(failed.count == 2 && failed[1].hasSuffix("Copy and paste"))
    }

    @Test(.enabled(if: SystemComponents.available("/usr/bin/xclip", VirtualDisplay.executable), "needs xclip and Xvfb (apt install xclip xvfb)"))
    func textRoundTripsThroughTheClipboardOfAnXDisplay() async throws {
        let display = try VirtualDisplay()
        let shortcuts = try ShortcutsBinary()
        defer { try? FileManager.default.removeItem(at: shortcuts.home) }
        let result = try await shortcuts.run(
            ["run", Self.workflow, "--input", "text=Grüße aus Shortcuts"], environment: ["DISPLAY": display.name, "WAYLAND_DISPLAY": nil])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Pasted: Grüße aus Shortcuts"))
    }
}
