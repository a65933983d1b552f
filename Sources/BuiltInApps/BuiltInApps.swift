import IntentKit

/// The apps every `shortcuts` installation has: everyday actions on the shell, the web, files,
/// text, data, numbers, dates, lists, notifications and the system, written with IntentKit like
/// any other app.
///
/// ```swift
/// await ShortcutsTool.main(apps: BuiltInApps.all + [LibraryApp.app])
/// ```
public enum BuiltInApps {
    /// Every built-in app, in the order `shortcuts list` shows them.
    public static let all: [IntentApp] = [
        ShellApp.app,
        WebApp.app,
        FilesApp.app,
        TextApp.app,
        DataApp.app,
        MathApp.app,
        DatesApp.app,
        ListsApp.app,
        NotifyApp.app,
        SystemApp.app,
        ClipboardApp.app
    ]
}

/// The `ja` (and other) strings of the built-in apps: one table per app,
/// `Resources/<locale>.lproj/<App>.strings`, compiled into the binary.
enum BuiltInStrings {
    /// The strings of one app's table.
    ///
    /// ```swift
    /// let strings = BuiltInStrings.catalog(table: "Shell")
    /// ```
    static func catalog(table: String) -> StringsCatalog {
        let files = BuiltInAppsResources.files.filter { $0.key.hasSuffix("/\(table).strings") }
        return (try? StringsCatalog(files: files)) ?? StringsCatalog()
    }
}
