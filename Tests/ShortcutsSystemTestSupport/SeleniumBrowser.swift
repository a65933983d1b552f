import Foundation
import ShortcutsTestSupport
import Testing

/// A real browser for the dashboard's end-to-end test: Debian's `chromium` and `chromium-driver`,
/// driven by Selenium from PyPI (`python3 -m pip install selenium`), through the script
/// `Tests/EndToEndTests/Fixtures/Dashboard/dashboard_browser.py`.
///
/// ```swift
/// @Test(.enabled(if: SeleniumBrowser.isAvailable, SeleniumBrowser.reason))
/// func browser() throws { … }
/// ```
public enum SeleniumBrowser {
    /// Chromium's launcher.
    public static let chromium = "/usr/bin/chromium"
    /// The driver Selenium talks to.
    public static let chromedriver = "/usr/bin/chromedriver"
    /// The script that drives the dashboard.
    public static let script = PackagePaths.root.appendingPathComponent("Tests/EndToEndTests/Fixtures/Dashboard/dashboard_browser.py")
    /// The script that watches runs started by a webhook and a dropped file appear live.
    public static let triggersScript = PackagePaths.root.appendingPathComponent("Tests/EndToEndTests/Fixtures/Dashboard/dashboard_triggers.py")

    /// The `python3` found in `PATH`, if it imports `selenium`.
    public static let python: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let path = folders.map({ "\($0)/python3" }).first(where: FileManager.default.isExecutableFile(atPath:)) else { return nil }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: path)
        check.arguments = ["-c", "import selenium"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return nil }
        check.waitUntilExit()
        return check.terminationStatus == 0 ? path : nil
    }()

    /// What is missing for the browser test, or `nil` when nothing is.
    public static var missingPiece: String? {
        var missing: [String] = []
        if !FileManager.default.isExecutableFile(atPath: chromium) { missing.append("chromium (apt-get install chromium)") }
        if !FileManager.default.isExecutableFile(atPath: chromedriver) { missing.append("chromedriver (apt-get install chromium-driver)") }
        if python == nil { missing.append("python3 with Selenium (python3 -m pip install selenium)") }
        return missing.isEmpty ? nil : "needs " + missing.joined(separator: ", ")
    }

    /// Whether the browser test runs: when everything is there, or when skipping is refused
    /// (``SystemComponents/isRequired``), so that it fails instead.
    public static var isAvailable: Bool { missingPiece == nil || SystemComponents.isRequired }

    /// Why the browser test is skipped otherwise.
    public static var reason: Comment { Comment(rawValue: missingPiece ?? "a browser is available") }
}
