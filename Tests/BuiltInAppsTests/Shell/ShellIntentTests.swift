import Clockwork
import Foundation
import IntentKit
import ShortcutsSystemTestSupport
import Testing

@testable import BuiltInApps

/// `Shell.RunScript` and `Shell.RunCommand` performed as a workflow performs them: their
/// values, their errors in words, and the details they record for the trace.
@Suite("Shell intents")
struct ShellIntentTests {
    private let performer = IntentPerformer(catalog: IntentCatalog(apps: [ShellApp.app]))

    /// Performs an intent, and returns its text output or its error's message, with the details.
    private func perform(_ name: String, _ arguments: [String: any Sendable]) async -> (text: String, failed: Bool, details: [String: IntentValue]) {
        let arguments = arguments.mapValues(Self.value)
        var performer = performer
        let log = IntentDetailLog()
        performer.detailLog = log
        do {
            let outcome = try await performer.perform(name, arguments: arguments)
            #expect(outcome.details == log.details)
            return (outcome.value?.displayText ?? "", false, log.details)
        } catch {
            return ("\(error)", true, log.details)
        }
    }

    /// A Swift value (text, number, list, dictionary) as the value a workflow would pass.
    private static func value(_ value: any Sendable) -> IntentValue {
        switch value {
        case let text as String: .string(text)
        case let number as Int: .int(number)
        case let number as Double: .double(number)
        case let flag as Bool: .bool(flag)
        case let list as [any Sendable]: .list(list.map(Self.value))
        case let dictionary as [String: any Sendable]: .dictionary(dictionary.mapValues(Self.value))
        default: .null
        }
    }

    @Test func aScriptGetsItsArgumentsAndInputAndLosesOneTrailingNewline() async {
        let result = await perform(
            "Shell.RunScript",
            ["script": #"printf '%s/%s/' "$1" "$2"; tr a-z A-Z; printf '\n\n'"#, "arguments": ["one two", "3"], "input": "quiet"])
        #expect(result.text == "one two/3/QUIET\n")
        #expect(!result.failed)
        #expect(result.details["status"] == .int(0))
    }

    @Test func aScriptRunsWithAnotherInterpreter() async throws {
        let result = await perform(
            "Shell.RunScript",
            [
                "script": "import sys\nprint(sys.argv[1:], sys.stdin.read().upper())", "shell": "python3", "arguments": ["a b", "c"],
                "input": "text"
            ])
        #expect(result.text == "['a b', 'c'] TEXT")
        let bash = await perform("Shell.RunScript", ["script": "echo ${BASH_VERSION:+bash} $(( 6 * 7 ))", "shell": "bash -e"])
        #expect(bash.text == "bash 42")
    }

    @Test func aCommandsArgumentsAreNeverParsedAgain() async {
        let arguments = ["[%s]\n", "a b", #"it's "quoted""#, "$HOME", "*", "; echo no", ""]
        let result = await perform("Shell.RunCommand", ["executable": "printf", "arguments": arguments])
        #expect(result.text == "[a b]\n[it's \"quoted\"]\n[$HOME]\n[*]\n[; echo no]\n[]")
    }

    @Test func theEnvironmentIsAddedAndTheWorkingDirectoryUsed() async throws {
        let folder = try TemporaryFolder.make(prefix: "shell-intent")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = await perform(
            "Shell.RunScript",
            [
                "script": #"pwd; echo "$GREETING"; test -n "$PATH" && echo has-path"#, "workingDirectory": folder.path,
                "environment": ["GREETING": "hi there"]
            ])
        #expect(result.text == "\(folder.resolvingSymlinksInPath().path)\nhi there\nhas-path")
        let missing = await perform("Shell.RunCommand", ["executable": "ls", "workingDirectory": "/no/such/folder"])
        #expect(missing.failed && missing.text.contains("the working directory /no/such/folder does not exist or is not a folder"))
    }

    @Test func aNonZeroExitFailsWithTheStatusAndTheLastErrorLines() async {
        let script = "for i in 1 2 3 4 5 6 7; do echo line $i >&2; done; echo partial; exit 2"
        let result = await perform("Shell.RunScript", ["script": script])
        #expect(result.failed)
        #expect(result.text == "Shell.RunScript failed: /bin/sh exited with status 2: line 3\nline 4\nline 5\nline 6\nline 7")
        #expect(result.details["status"] == .int(2))
        #expect(result.details["stderr"]?.displayText.hasSuffix("line 7\n") == true)
        #expect(result.details["duration"].map { if case .double(let seconds) = $0 { seconds > 0 && seconds < 5 } else { false } } == true)
    }

    @Test func failOnErrorFalseReturnsTheOutput() async {
        let result = await perform("Shell.RunCommand", ["executable": "sh", "arguments": ["-c", "echo partial; exit 4"], "failOnError": false])
        #expect(!result.failed)
        #expect(result.text == "partial")
        #expect(result.details["status"] == .int(4))
    }

    @Test func aMissingCommandIsSaidInThoseWords() async {
        let command = await perform("Shell.RunCommand", ["executable": "no-such-command-here"])
        #expect(command.text == "Shell.RunCommand failed: no-such-command-here: command not found")
        let interpreter = await perform("Shell.RunScript", ["script": "print(1)", "shell": "python9"])
        #expect(interpreter.text == "Shell.RunScript failed: python9: command not found")
        let inScript = await perform("Shell.RunScript", ["script": "no-such-command-here --flag"])
        #expect(inScript.text.hasPrefix("Shell.RunScript failed: /bin/sh exited with status 127 (command not found): "))
        #expect(inScript.text.contains("no-such-command-here"))
    }

    @Test func aTimeoutFailsTheStepAndEndsTheGroup() async throws {
        // The step times out when the clock the built-in apps were given passes its timeout.
        let clock = ManualClock()
        let start = clock.now()
        let step = Task {
            await TaskClock.$current.withValue(clock) {
                await perform("Shell.RunScript", ["script": "sleep 30 & wait", "timeout": 0.5])
            }
        }
        try await clock.waitForSleeper(deadline: start.adding(.milliseconds(500)))
        clock.advance(by: .milliseconds(500))
        let result = await step.value
        #expect(result.details["duration"].map { if case .double(let seconds) = $0 { abs(seconds - 0.5) < 1e-6 } else { false } } == true)
        #expect(result.failed)
        #expect(
            result.text
                == "Shell.RunScript failed: /bin/sh timed out after 0.5 s; it was stopped with every process it started (SIGTERM, then SIGKILL)")
        #expect(result.details["signal"] == .string("SIGTERM"))
        let zero = await perform("Shell.RunCommand", ["executable": "true", "timeout": 0])
        #expect(zero.text == "Shell.RunCommand failed: the timeout 0 is not a positive number of seconds")
    }

    @Test func killedBySignalIsSaid() async {
        let result = await perform("Shell.RunScript", ["script": "kill -KILL $$"])
        #expect(result.text == "Shell.RunScript failed: /bin/sh was killed by SIGKILL")
    }

    @Test func theScriptIsHeldInMemoryAndNeverWrittenToAFolder() async throws {
        // The interpreter reads the script from descriptor 3: a file in memory that no folder holds.
        let result = await perform("Shell.RunScript", ["script": "echo \"$0 $(readlink /proc/$$/fd/3)\""])
        #expect(result.text == "/dev/fd/3 /memfd:shortcuts-script (deleted)")
        let python = await perform("Shell.RunScript", ["script": "import sys; print(sys.argv[1:])", "shell": "python3", "arguments": ["a"]])
        #expect(python.text == "['a']")
    }
}
