import ArgumentParser
import IntentKit

/// `shortcuts help COMMAND…` names commands that exist: argument-parser prints the root help and
/// succeeds for a name it does not know, so an unknown one is a usage error here, with the
/// nearest name.
///
/// ```swift
/// try HelpTopic.check(["help", "runs", "shwo"])   // error: no command 'runs shwo'; did you mean 'show'?
/// ```
enum HelpTopic {
    /// Throws a usage error when `arguments` ask for the help of a command that does not exist.
    static func check(_ arguments: [String]) throws {
        guard arguments.first == "help" else { return }
        var command: any ParsableCommand.Type = ShortcutsCommand.self
        var path: [String] = []
        for name in arguments.dropFirst() where !name.hasPrefix("-") {
            let subcommands = command.configuration.subcommands
            path.append(name)
            guard let next = subcommands.first(where: { names(of: $0).contains(name) }) else {
                let known = subcommands.flatMap(names)
                let topic = Installation.shared.commandName + (path.count > 1 ? " " + path.dropLast().joined(separator: " ") : "")
                var help: [String] = []
                if let nearest = NameSuggestion.nearest(to: name, among: known) { help.append("did you mean '\(nearest)'?") }
                help.append(
                    known.isEmpty
                        ? "'\(topic)' has no commands: `\(topic) --help` shows its help"
                        : "`\(topic) --help` lists its commands")
                throw CommandLineError("no command '\(path.joined(separator: " "))'", help: help, exitCode: 64)
            }
            command = next
        }
    }

    private static func names(of command: any ParsableCommand.Type) -> [String] {
        let configuration = command.configuration
        let name = configuration.commandName ?? String(describing: command).lowercased()
        return [name] + configuration.aliases
    }
}
