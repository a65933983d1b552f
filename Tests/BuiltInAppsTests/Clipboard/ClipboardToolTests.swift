import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import Testing

@testable import BuiltInApps

/// The clipboard through the session's tool: the errors that say what to install or where to
/// run, and a real round trip through xclip on a virtual X display.
@Suite struct ClipboardToolTests {
    private func message(_ environment: [String: String]) -> String? {
        do {
            _ = try ClipboardTool.find(environment: environment)
            return nil
        } catch {
            return IntentPerformer.message(for: error, in: Localization())
        }
    }

    @Test func withoutADisplayItSaysAGraphicalSessionIsNeededAndWhatToInstall() {
        let text = message(["PATH": "/usr/bin:/bin"])
        #expect(text?.hasPrefix("The clipboard needs a graphical session: neither WAYLAND_DISPLAY nor DISPLAY is set") == true)
        #expect(text?.contains("Install wl-clipboard (Wayland) or xclip (X11)") == true)
    }

    @Test func aDisplayWithoutItsToolSaysWhichPackageToInstall() throws {
        let empty = try TemporaryFolder.make(prefix: "empty-path")
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(
            message(["DISPLAY": ":0", "PATH": empty.path]) == "DISPLAY is set but xclip is not installed: install xclip (sudo apt install xclip).")
        #expect(
            message(["WAYLAND_DISPLAY": "wayland-0", "PATH": empty.path])
                == "WAYLAND_DISPLAY is set but wl-copy/wl-paste is not installed: install wl-clipboard (sudo apt install wl-clipboard).")
    }

    @Test func waylandIsPreferredAndX11IsTheFallback() throws {
        let tools = try TemporaryFolder.make(prefix: "clipboard-tools")
        defer { try? FileManager.default.removeItem(at: tools) }
        for name in ["wl-copy", "wl-paste", "xclip"] {
            let file = tools.appendingPathComponent(name)
            try ExecutableFile.write("#!/bin/sh\n", to: file)
        }
        let both = try ClipboardTool.find(environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "PATH": tools.path])
        #expect(both.writeCommand == [tools.appendingPathComponent("wl-copy").path])
        #expect(both.readCommand == [tools.appendingPathComponent("wl-paste").path, "--no-newline"])
        let x11 = try ClipboardTool.find(environment: ["DISPLAY": ":0", "PATH": tools.path])
        #expect(x11.readCommand == [tools.appendingPathComponent("xclip").path, "-selection", "clipboard", "-o"])
    }

    @Test(.enabled(if: SystemComponents.available("/usr/bin/xclip", VirtualDisplay.executable), "needs xclip and Xvfb (apt install xclip xvfb)"))
    func textRoundTripsThroughXclipOnAVirtualDisplay() throws {
        let display = try VirtualDisplay()
        let tool = try ClipboardTool.find(environment: ["DISPLAY": display.name, "PATH": "/usr/bin:/bin"])
        #expect(try tool.read() == "", "a new display's clipboard is empty")
        let text = "Grüße, 世界\nsecond line\n"
        try tool.write(text)
        #expect(try tool.read() == text)
        try tool.write("replaced")
        #expect(try tool.read() == "replaced")
    }
}
