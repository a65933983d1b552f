import Foundation
import Synchronization

/// Writes files from a shell of its own, so that when a call returns the file is closed and
/// every inotify event of the write, its close included, is queued.
///
/// A file the test process writes itself can stay open after the test closes it. Foundation
/// opens files without `O_CLOEXEC`, so a child that another test starts at that moment
/// inherits the descriptor and holds the file open until it execs or exits; a watcher then
/// sees the close, the end of the write, only later, at a time the test did not choose. No
/// process but the shell ever has the shell's files open.
///
/// ```swift
/// try await ShellWriter.write("one", to: inbox.appendingPathComponent("a.txt"))
/// try await ShellWriter.write(" two", to: inbox.appendingPathComponent("a.txt"), appending: true)
/// ```
public enum ShellWriter {
    /// Writes `text` to `file`, replacing what it held, or after it when `appending`.
    ///
    /// - Throws: ``BackgroundProgram/Failure`` when the shell cannot write the file.
    public static func write(_ text: String, to file: URL, appending: Bool = false) async throws {
        let script = appending ? #"printf %s "$1" >> "$2""# : #"printf %s "$1" > "$2""#
        let shell = try BackgroundProgram(executable: "/bin/sh", arguments: ["-c", script, "sh", text, file.path])
        let result = try await shell.finish()
        guard result.status == 0 else { throw BackgroundProgram.Failure(description: "cannot write \(file.path): \(result.error)") }
    }
}

/// A file kept open for writing between writes by a shell of its own, as a slow writer keeps
/// it: each call returns once the shell has done it, its inotify events queued.
///
/// ```swift
/// let writer = try await HeldOpenFile(inbox.appendingPathComponent("slow.txt"))
/// try await writer.write("chunk")
/// try await writer.close()
/// ```
public final class HeldOpenFile: Sendable {
    private let shell: BackgroundProgram
    /// How many of its commands the shell has acknowledged.
    private let done = Mutex(0)

    /// Opens `file` for appending, creating it when it does not exist.
    public init(_ file: URL) async throws {
        let script = """
            exec 3>>"$1" || exit 1
            echo opened
            while IFS= read -r line; do
                case "$line" in
                    close) exec 3>&-; echo closed; exit 0 ;;
                    *) printf '%s\\n' "${line#w}" >&3; echo written ;;
                esac
            done
            """
        shell = try BackgroundProgram(executable: "/bin/sh", arguments: ["-c", script, "sh", file.path], input: .pipe)
        try await acknowledged("the file opened")
    }

    /// Appends `line` and a line feed.
    public func write(_ line: String) async throws {
        precondition(!line.contains("\n"), "one line at a time")
        try shell.write("w\(line)\n")
        try await acknowledged("a write")
    }

    /// Closes the file; the shell ends.
    public func close() async throws {
        try shell.write("close\n")
        try await acknowledged("the close")
        _ = try await shell.finish()
    }

    /// Waits until the shell has acknowledged one more command.
    private func acknowledged(_ what: String) async throws {
        let count = done.withLock { count in
            count += 1
            return count
        }
        try await shell.waitForOutput(what, in: .output) { $0.split(separator: "\n").count >= count }
    }
}
