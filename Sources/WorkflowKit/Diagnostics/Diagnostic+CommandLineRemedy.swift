extension Diagnostic {
    /// This diagnostic with its ``remedy`` worded for the command line and added to its help:
    /// what `shortcuts validate` prints, and what the dashboard shows beside it.
    ///
    /// ```swift
    /// let shown = diagnostic.withCommandLineRemedy(commandName: "shortcuts")
    /// print(shown.help ?? "")   // "… , or answer it in advance with --answer title=VALUE"
    /// ```
    ///
    /// - Parameter commandName: The tool's name, for the commands it suggests.
    /// - Returns: The diagnostic with the remedy in its help.
    package func withCommandLineRemedy(commandName: String) -> Diagnostic {
        var diagnostic = self
        switch remedy {
        case .answerInAdvance(let name, let placeholder):
            let hint = "answer it in advance with --answer \(name)=\(placeholder)"
            diagnostic.help = help.map { "\($0), or \(hint)" } ?? hint
        case .giveInput(let name, let placeholder):
            let hint = "give it with --input \(name)=\(placeholder)"
            diagnostic.help = help.map { "\($0), or \(hint)" } ?? hint
        case .listInstalled(let kind):
            if help == nil {
                diagnostic.help = "`\(commandName) list \(kind)` lists the installed \(kind)"
            }
        case .storeSecret(let name):
            let hint = "`\(commandName) secrets set \(name)` stores it"
            diagnostic.help = help.map { "\($0)\nhelp: \(hint)" } ?? hint
        case nil:
            break
        }
        return diagnostic
    }
}
