import Foundation
import Testing

/// Shell completions: the scripts, and the candidates the binary gives back for arguments.
@Suite
struct CompletionTests {
    /// Asks the binary for the candidates of an argument, as the completion scripts do.
    func candidates(_ shortcuts: InProcessShortcuts, _ path: [String], words: [String]) async throws -> [String] {
        let arguments = ["---completion"] + path + ["--", "positional@0", String(words.count - 1), String(words[words.count - 1].count)] + words
        let result = await shortcuts.run(arguments)
        #expect(result.status == 0, "\(result.error)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func scriptsAreGeneratedForEveryShell() async throws {
        let shortcuts = try InProcessShortcuts()
        for shell in ["bash", "zsh", "fish"] {
            let script = await shortcuts.run(["--generate-completion-script", shell])
            #expect(script.status == 0)
            #expect(script.output.contains("---completion"), "\(shell) script calls back into the binary")
        }
    }

    @Test func intentsAreCompleted() async throws {
        let found = try await candidates(InProcessShortcuts(), ["perform"], words: ["shortcuts", "perform", "Library.Ad"])
        #expect(found == ["Library.AddBook"])
    }

    @Test func workflowsAreCompletedByNameAndFile() async throws {
        let shortcuts = try InProcessShortcuts()
        let byName = try await candidates(shortcuts, ["run"], words: ["shortcuts", "run", "add-a"])
        #expect(byName == ["add-and-open"])
        let byFile = try await candidates(shortcuts, ["run"], words: ["shortcuts", "run", "Workflows/add-a"])
        #expect(byFile == ["Workflows/add-and-open.yaml"])
    }
}

extension CompletionTests {
    @Test func indexAndAutomationNamesAreCompleted() async throws {
        let shortcuts = try InProcessShortcuts()
        let indexes = try await candidates(shortcuts, ["index", "status"], words: ["shortcuts", "index", "status", "li"])
        #expect(indexes == ["library"])
        let automations = try await candidates(shortcuts, ["automations", "run"], words: ["shortcuts", "automations", "run", "morning-r"])
        #expect(automations == ["morning-reminder"])
    }
}
