import Foundation
import ShortcutsSystemTestSupport
import Testing

/// A FIFO or a device where a workflow or a file is expected never makes a command wait, and
/// is never replaced.
@Suite("Special files", .endToEnd)
struct SpecialFileCommandTests {
    @Test func aFIFONamedLikeAWorkflowIsLeftOutOfListingsAndReadsAsEmpty() async throws {
        let shortcuts = try ShortcutsBinary()
        let folder = try TemporaryFolder.make(prefix: "special-files")
        let workflows = folder.appendingPathComponent("Workflows")
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        try "name: Hello\nsteps:\n  - show: hello\n".write(to: workflows.appendingPathComponent("hello.yaml"), atomically: true, encoding: .utf8)
        let fifo = workflows.appendingPathComponent("fifo.yaml").path
        try #require(mkfifo(fifo, 0o600) == 0)

        let listed = try await shortcuts.run(["list", "workflows"], in: folder)
        #expect(listed.status == 0, "\(listed.error)")
        #expect(listed.output.contains("Workflows/hello.yaml") && !listed.output.contains("fifo"))
        let automations = try await shortcuts.run(["list", "automations"], in: folder)
        #expect(automations.status == 0, "\(automations.error)")
        let validated = try await shortcuts.run(["validate", "Workflows/hello.yaml", "Workflows/fifo.yaml"], in: folder)
        #expect(validated.status == 1)
        #expect(validated.error.contains("Workflows/fifo.yaml:1:1: error: the workflow file is empty"), "\(validated.error)")
        let device = try await shortcuts.run(["validate", "/dev/zero"], in: folder)
        #expect(device.error.contains("'/dev/zero' is a character device, not a workflow file"), "\(device.error)")
    }

    @Test func filesActionsRefuseAFIFOAndLeaveItInPlace() async throws {
        let shortcuts = try ShortcutsBinary()
        let folder = try TemporaryFolder.make(prefix: "special-files")
        let fifo = folder.appendingPathComponent("pipe").path
        try #require(mkfifo(fifo, 0o600) == 0)
        for arguments in [
            ["perform", "Files.WriteFile", "path=\(fifo)", "content=x"], ["perform", "Files.ReadFile", "path=\(fifo)"],
            ["perform", "Files.Delete", "path=\(fifo)", "permanently=true"]
        ] {
            let result = try await shortcuts.run(arguments, in: folder)
            #expect(result.status == 1)
            #expect(result.error.contains("\(fifo): it is a FIFO (named pipe), not a regular file or folder"), "\(result.error)")
        }
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
    }
}
