import IntentKit

/// The desktop's clipboard: `Clipboard.Get` and `Clipboard.Set`, through wl-clipboard on
/// Wayland or xclip on X11.
///
/// ```yaml
/// - perform: Clipboard.Set
///   with: { text: "${summary}" }
/// ```
public enum ClipboardApp {
    /// The app, as `shortcuts list` shows it.
    public static let app = IntentApp(name: "Clipboard", intents: [Get.self, Set.self], strings: BuiltInStrings.catalog(table: "Clipboard"))

    /// Why the clipboard could not be read or written.
    public enum Error: Swift.Error, CustomLocalizedStringResourceConvertible {
        /// Neither `WAYLAND_DISPLAY` nor `DISPLAY` is set.
        case noGraphicalSession
        /// The session's tool is not installed.
        case toolMissing(variable: String, tool: String, package: String)
        /// The tool failed.
        case failed(command: String, status: Int32, message: String)
        /// The tool did not finish in time.
        case timedOut(command: String, seconds: Int)
        /// The tool could not be started.
        case cannotStart(command: String, reason: String)

        public var localizedStringResource: LocalizedStringResource {
            switch self {
            case .noGraphicalSession:
                "The clipboard needs a graphical session: neither WAYLAND_DISPLAY nor DISPLAY is set (the daemon under systemd has neither). Install wl-clipboard (Wayland) or xclip (X11) and run this from a desktop session."
            case .toolMissing(let variable, let tool, let package):
                "\(variable) is set but \(tool) is not installed: install \(package) (sudo apt install \(package))."
            case .failed(let command, let status, let message):
                "\(command) exited with status \(Int(status)): \(message)"
            case .timedOut(let command, let seconds):
                "\(command) did not finish within \(seconds) seconds."
            case .cannotStart(let command, let reason):
                "Cannot start \(command): \(reason)."
            }
        }
    }
}
