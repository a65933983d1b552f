import IntentKit

/// Runs programs: a script through an interpreter (`Shell.RunScript`) or a program with
/// arguments that are never parsed again (`Shell.RunCommand`).
///
/// ```yaml
/// - id: today
///   perform: Shell.RunCommand
///   with: { executable: date, arguments: ["+%F"] }
/// ```
public enum ShellApp {
    /// The Shell app.
    public static let app = IntentApp(
        name: "Shell", intents: [RunScript.self, RunCommand.self], strings: BuiltInStrings.catalog(table: "Shell"))
}
