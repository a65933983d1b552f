import Foundation
import Testing

/// Shell completions: the scripts, and the candidates the binary gives back for arguments.
struct CompletionTests {
    /// Asks the binary for the candidates of an argument, as the completion scripts do.
    func candidates(_ shortcuts: ShortcutsBinary, _ path: [String], words: [String]) throws -> [String] {
        let arguments = ["---completion"] + path + ["--", "positional@0", String(words.count - 1), String(words[words.count - 1].count)] + words
        let result = try shortcuts.run(arguments)
        #expect(result.status == 0, "\(result.error)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func scriptsAreGeneratedForEveryShell() throws {
        let shortcuts = try ShortcutsBinary()
        for shell in ["bash", "zsh", "fish"] {
            let script = try shortcuts.run(["--generate-completion-script", shell])
            #expect(script.status == 0)
            #expect(script.output.contains("---completion"), "\(shell) script calls back into the binary")
        }
    }

    @Test func intentsAreCompleted() throws {
        let found = try candidates(ShortcutsBinary(), ["perform"], words: ["shortcuts", "perform", "Library.Ad"])
        #expect(found == ["Library.AddBook"])
    }

    @Test func workflowsAreCompletedByNameAndFile() throws {
        let shortcuts = try ShortcutsBinary()
        let byName = try candidates(shortcuts, ["run"], words: ["shortcuts", "run", "add-a"])
        #expect(byName == ["add-and-open"])
        let byFile = try candidates(shortcuts, ["run"], words: ["shortcuts", "run", "Workflows/add-a"])
        #expect(byFile == ["Workflows/add-and-open.yaml"])
    }
}

extension CompletionTests {
    @Test func indexAndAutomationNamesAreCompleted() throws {
        let shortcuts = try ShortcutsBinary()
        let indexes = try candidates(shortcuts, ["index", "status"], words: ["shortcuts", "index", "status", "li"])
        #expect(indexes == ["library"])
        let automations = try candidates(shortcuts, ["automations", "run"], words: ["shortcuts", "automations", "run", "morning-r"])
        #expect(automations == ["morning-reminder"])
    }
}
