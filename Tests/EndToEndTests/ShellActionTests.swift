import Foundation
import ShortcutsSystemTestSupport
import Testing

/// `Shell.RunScript` and `Shell.RunCommand` in real workflow files run by the `shortcuts`
/// binary: values in and out, errors in words at the step, and runs recorded with the exit
/// status, standard error and duration of their commands.
@Suite("Shell actions", .endToEnd)
struct ShellActionTests {
    /// A workflow file in a fresh folder, run by the binary.
    private struct Workflow {
        let folder: URL
        let file: URL
        let shortcuts: ShortcutsBinary

        init(_ yaml: String) throws {
            folder = try TemporaryFolder.make(prefix: "shell-actions")
            file = folder.appendingPathComponent("shell.yaml")
            try yaml.write(to: file, atomically: true, encoding: .utf8)
            shortcuts = try ShortcutsBinary()
        }

        func run(_ arguments: String...) async throws -> ShortcutsBinary.Result {
            try await timedRun(arguments).result
        }

        /// Runs the workflow and says how long the binary took.
        func timedRun(_ arguments: [String] = []) async throws -> (result: ShortcutsBinary.Result, seconds: Double) {
            let result = try await shortcuts.run(["run", file.path] + arguments, in: folder)
            return (result, result.seconds)
        }

        /// The most recent run, as `runs show --json` prints it.
        func lastRun() async throws -> (run: [String: Any], steps: [[String: Any]], text: String) {
            let listed = try await shortcuts.run(["runs", "list", "--json"])
            let runs = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
            let id = try #require(runs.first?["id"] as? String)
            let shown = try await shortcuts.run(["runs", "show", id, "--json"])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
            let text = try await shortcuts.run(["runs", "show", id]).output
            return (try #require(document["run"] as? [String: Any]), try #require(document["steps"] as? [[String: Any]]), text)
        }
    }

    @Test func aScriptGetsArgumentsAndInputFromTheWorkflow() async throws {
        let workflow = try Workflow(
            """
            input: { name: { type: String } }
            steps:
              - id: greeting
                perform: Shell.RunScript
                with:
                  script: 'printf "%s, %s" "$1" "$(cat)"'
                  arguments: ["Hello there", "${input.name}"]
                  input: "${input.name}"
            output: "${greeting}"
            """)
        let result = try await workflow.run("--input", "name=Ada Lovelace", "--json")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "\"Hello there, Ada Lovelace\"\n")
    }

    @Test(.enabled(if: SystemComponents.available("/usr/bin/python3"), "needs python3"))
    func aScriptRunsWithPython() async throws {
        let workflow = try Workflow(
            """
            steps:
              - id: sum
                perform: Shell.RunScript
                with:
                  shell: python3
                  script: |
                    import sys
                    print(sum(int(a) for a in sys.argv[1:]))
                  arguments: ["40", "2"]
            output: "${sum}"
            """)
        let result = try await workflow.run()
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "42\n")
    }

    @Test func aCommandsArgumentsReachItAsWritten() async throws {
        let workflow = try Workflow(
            #"""
            steps:
              - id: printed
                perform: Shell.RunCommand
                with:
                  executable: printf
                  arguments: ['<%s>\n', "two words", "it's \"quoted\"", '$HOME', '*', '; rm -rf nothing']
            output: "${printed}"
            """#)
        let result = try await workflow.run()
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "<two words>\n<it's \"quoted\">\n<$HOME>\n<*>\n<; rm -rf nothing>\n")
    }

    @Test func aNonZeroExitFailsTheStepWithTheStatusAndTheErrorLines() async throws {
        let workflow = try Workflow(
            """
            steps:
              - perform: Shell.RunScript
                with: { script: "echo checking >&2; ls /no/such/folder" }
            """)
        let result = try await workflow.run()
        #expect(result.status == 1)
        #expect(
            result.error.contains(
                "shell.yaml:2:14: error: Shell.RunScript failed: /bin/sh exited with status 2: checking\nls: cannot access '/no/such/folder'"))
        let last = try await workflow.lastRun()
        #expect(last.run["status"] as? String == "failed")
        let details = try #require(last.steps.first?["details"] as? [String: Any])
        #expect(details["status"] as? Int == 2)
        #expect((details["stderr"] as? String)?.hasPrefix("checking\nls: cannot access") == true)
        #expect((details["duration"] as? Double).map { $0 > 0 && $0 < 5 } == true)
        #expect(last.text.contains("      status: 2\n"))
        #expect(last.text.contains("      stderr: checking / ls: cannot access '/no/such/folder'"))
        #expect(last.text.contains("      duration: 0."))
    }

    @Test func failOnErrorFalseReturnsTheOutputAndTheStatusIsTraced() async throws {
        let workflow = try Workflow(
            """
            steps:
              - id: grep
                perform: Shell.RunCommand
                with: { executable: grep, arguments: [needle], input: "hay\\nstack\\n", failOnError: false }
              - show: "found: '${grep}'"
            """)
        let result = try await workflow.run()
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "found: ''\n")
        let last = try await workflow.lastRun()
        #expect((last.steps.first?["details"] as? [String: Any])?["status"] as? Int == 1)
    }

    @Test func aMissingCommandIsSaidInThoseWords() async throws {
        let workflow = try Workflow(
            """
            steps:
              - perform: Shell.RunCommand
                with: { executable: frobnicate-files }
            """)
        let result = try await workflow.run()
        #expect(result.status == 1)
        #expect(result.error.contains("error: Shell.RunCommand failed: frobnicate-files: command not found"))
        let inScript = try Workflow(
            """
            steps:
              - perform: Shell.RunScript
                with: { script: "frobnicate-files --all" }
            """)
        let scripted = try await inScript.run()
        #expect(scripted.error.contains("Shell.RunScript failed: /bin/sh exited with status 127 (command not found): "))
        #expect(try await inScript.lastRun().run["status"] as? String == "failed")
    }

    @Test func aTimeoutEndsEveryProcessOfTheScriptAndTheRunIsRecordedFailed() async throws {
        let workflow = try Workflow(
            """
            steps:
              - perform: Shell.RunScript
                with:
                  script: 'echo $$ > group; sleep 30 & echo $! > sleeper; wait'
                  timeout: 1
            """)
        let (result, seconds) = try await workflow.timedRun()
        #expect(seconds < 10)
        #expect(result.status == 1)
        #expect(
            result.error.contains(
                "Shell.RunScript failed: /bin/sh timed out after 1 s; it was stopped with every process it started (SIGTERM, then SIGKILL)"))
        let group = try #require(pid_t(try String(contentsOf: workflow.folder.appendingPathComponent("group"), encoding: .utf8).trimmed))
        let sleeper = try #require(pid_t(try String(contentsOf: workflow.folder.appendingPathComponent("sleeper"), encoding: .utf8).trimmed))
        let left = await ProcessGroupProbe.waitUntilGone(group)
        #expect(left.isEmpty, "still in the script's group: \(left)")
        #expect(!ProcessGroupProbe.isRunning(sleeper))

        let listed = try await workflow.shortcuts.run(["runs", "list", "--status", "failed"])
        #expect(listed.output.split(separator: "\n").count == 2)
        let last = try await workflow.lastRun()
        #expect(last.run["status"] as? String == "failed")
        #expect((last.run["error"] as? String)?.contains("timed out after 1 s") == true)
        #expect((last.steps.first?["details"] as? [String: Any])?["signal"] as? String == "SIGTERM")
    }

    @Test func outputOverTheCapIsAnError() async throws {
        let workflow = try Workflow(
            """
            steps:
              - perform: Shell.RunCommand
                with: { executable: head, arguments: ["-c", "17000000", /dev/zero], timeout: 20 }
            """)
        let result = try await workflow.run()
        #expect(result.status == 1)
        #expect(result.error.contains("Shell.RunCommand failed: head wrote more than 16 MiB to standard output; it was stopped"))
        #expect(try await workflow.lastRun().run["status"] as? String == "failed")
    }

    @Test func ctrlCEndsTheScriptsGroupAndTheRunIsRecordedCancelled() async throws {
        let workflow = try Workflow(
            """
            steps:
              - perform: Shell.RunScript
                with: { script: 'echo $$ > group; sleep 120 & wait' }
            """)
        let groupFile = workflow.folder.appendingPathComponent("group")
        // Started, interrupted once the script runs, and waited for on a thread of its own,
        // so that a busy test pool cannot delay the Ctrl-C past the script's end.
        let process = try await detached { [workflow] in
            let process = Process()
            process.executableURL = workflow.shortcuts.executable
            process.arguments = ["run", workflow.file.path]
            process.currentDirectoryURL = workflow.folder
            process.environment = ProcessInfo.processInfo.environment.merging(["SHORTCUTS_HOME": workflow.shortcuts.home.path]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            _ = try eventuallyBlocking(watching: [.file(groupFile), .exit(process.processIdentifier)]) {
                (try? String(contentsOf: groupFile, encoding: .utf8))?.hasSuffix("\n") == true || !process.isRunning
            }
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            return process
        }
        let group = try #require(pid_t(try String(contentsOf: groupFile, encoding: .utf8).trimmed))
        #expect(process.terminationStatus == 130)
        let left = await ProcessGroupProbe.waitUntilGone(group)
        #expect(left.isEmpty, "still in the script's group: \(left)")
        #expect(try await workflow.lastRun().run["status"] as? String == "cancelled")
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
