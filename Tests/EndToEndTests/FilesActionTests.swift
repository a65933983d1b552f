import Foundation
import Testing

/// The Files app through the `shortcuts` binary, on real files in temporary folders.
@Suite(.endToEnd) struct FilesActionTests {
    /// Writes a workflow file into a folder and returns its path.
    private func workflow(_ text: String, named name: String = "flow.yaml", in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private func make(_ name: String, in folder: URL, _ text: String = "x", daysOld: Double = 0) throws {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-daysOld * 86_400)], ofItemAtPath: url.path)
    }

    private func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func findFilesWithWhereSortByAndLimit() async throws {
        let folder = try TemporaryFolder.make(prefix: "files-find")
        try make("Downloads/a.zip", in: folder, "aaaa", daysOld: 20)
        try make("Downloads/b.pdf", in: folder, "bbbbbbbb", daysOld: 12)
        try make("Downloads/c.pdf", in: folder, "cc", daysOld: 9)
        try make("Downloads/new.pdf", in: folder, "n", daysOld: 1)
        try make("Downloads/sub/deep.pdf", in: folder, "d", daysOld: 30)
        let file = try workflow(
            """
            name: Oldest downloads
            input:
              cutoff: { type: Date }
            steps:
              - id: old
                find: Files.FileEntity
                where:
                  folder: { equalTo: Downloads }
                  modified: { lessThan: ${input.cutoff} }
                  isDirectory: { equalTo: false }
                sortBy: [ { size: descending } ]
                limit: 2
              - repeat: { each: ${old}, as: file }
                steps:
                  - show: "${file.name} ${file.size} ${file.contentType}"
            output: ${old.count}
            """, in: folder)
        let cutoff = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-7 * 86_400))
        let result = try await ShortcutsBinary().run(["run", file, "--input", "cutoff=\(cutoff)"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "b.pdf 8 application/pdf\na.zip 4 application/zip\n2\n")
    }

    @Test func aFindWithoutAFolderFailsAtTheStepSayingWhereToLook() async throws {
        let folder = try TemporaryFolder.make(prefix: "files-find")
        let file = try workflow(
            """
            name: No folder
            steps:
              - find: Files.FileEntity
                where: { name: { hasSuffix: .pdf } }
            """, in: folder)
        let result = try await ShortcutsBinary().run(["run", file])
        #expect(result.status == 1)
        #expect(result.error.contains("flow.yaml:3:5: error: find Files.FileEntity: Finding files needs a folder to look in"))
        #expect(result.error.contains("folder: { hasPrefix: ~/Downloads } for its whole tree"))
    }

    @Test func deleteBackupsOlderThanSevenDaysThroughFind() async throws {
        let folder = try TemporaryFolder.make(prefix: "files-backups")
        let backups = folder.appendingPathComponent("backups")
        for (name, age) in [("monday.tar.gz", 10.0), ("tuesday.tar.gz", 8), ("friday.tar.gz", 3), ("today.tar.gz", 0)] {
            try make("backups/\(name)", in: folder, name, daysOld: age)
        }
        try make("backups/notes.txt", in: folder, "keep me", daysOld: 30)
        let file = try workflow(
            """
            name: Drop old backups
            input:
              cutoff: { type: Date }
            steps:
              - id: old
                find: Files.FileEntity
                where:
                  folder: { equalTo: backups }
                  name: { hasSuffix: .tar.gz }
                  modified: { lessThan: ${input.cutoff} }
                sortBy: [ { name: ascending } ]
              - repeat: { each: ${old}, as: backup }
                steps:
                  - perform: Files.Delete
                    with: { path: "${backup}" }
            output: ${old.count}
            """, in: folder)
        let dataHome = folder.appendingPathComponent("data")
        let cutoff = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-7 * 86_400))
        let result = try await ShortcutsBinary().run(["run", file, "--input", "cutoff=\(cutoff)"], environment: ["XDG_DATA_HOME": dataHome.path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "2\n")
        #expect(try names(in: backups) == ["friday.tar.gz", "notes.txt", "today.tar.gz"])
        let trash = dataHome.appendingPathComponent("Trash")
        #expect(try names(in: trash.appendingPathComponent("files")) == ["monday.tar.gz", "tuesday.tar.gz"])
        let info = try String(contentsOf: trash.appendingPathComponent("info/monday.tar.gz.trashinfo"), encoding: .utf8)
        #expect(info.hasPrefix("[Trash Info]\nPath=\(backups.appendingPathComponent("monday.tar.gz").path)\nDeletionDate="))
    }

    @Test func relativePathsAreRelativeToTheWorkflowFileAndToTheCurrentDirectoryForPerform() async throws {
        let folder = try TemporaryFolder.make(prefix: "files-relative")
        let elsewhere = try TemporaryFolder.make(prefix: "files-elsewhere")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("flows"), withIntermediateDirectories: true)
        let file = try workflow(
            """
            name: Write beside me
            steps:
              - perform: Files.WriteFile
                with: { path: out/note.txt, content: "hello", createFolders: true }
              - id: text
                perform: Files.ReadFile
                with: { path: out/note.txt }
            output: ${text}
            """, in: folder.appendingPathComponent("flows"))
        let shortcuts = try ShortcutsBinary()
        let ran = try await shortcuts.run(["run", file], in: elsewhere)
        #expect(ran.status == 0, "\(ran.error)")
        #expect(ran.output == "hello\n")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("flows/out/note.txt").path))
        #expect(try names(in: elsewhere).isEmpty)
        let performed = try await shortcuts.run(["perform", "Files.WriteFile", "path=here.txt", "content=cwd"], in: elsewhere)
        #expect(performed.status == 0, "\(performed.error)")
        #expect(try String(contentsOf: elsewhere.appendingPathComponent("here.txt"), encoding: .utf8) == "cwd")
    }

    @Test func theDaemonResolvesRelativePathsAgainstTheWorkflowFileToo() async throws {
        let folder = try TemporaryFolder.make(prefix: "files-daemon")
        let marker = "files-daemon-\(UUID().uuidString).txt"
        _ = try workflow(
            """
            name: Tick to a file
            automation:
              schedule: "@reboot"
            steps:
              - perform: Files.WriteFile
                with: { path: \(marker), content: "tick\\n", mode: append }
            """, named: "tick.yaml", in: folder)
        let shortcuts = try ShortcutsBinary()
        let daemon = try DaemonProcess.start(shortcuts, folder: folder.path, grace: "5s")
        let written = folder.appendingPathComponent(marker)
        // Run once as the daemon starts: an event, not the next second of the real clock.
        let appeared = try await eventually(watching: [.file(written)]) { FileManager.default.fileExists(atPath: written.path) }
        #expect(daemon.stop() == 0)
        #expect(appeared, "\(daemon.log)")
        #expect(!FileManager.default.fileExists(atPath: ShortcutsBinary.packageRoot.appendingPathComponent(marker).path))
    }

    @Test func aMissingFileFailsTheRunNamingThePathAndTheRunIsRecordedFailed() async throws {
        let folder = try TemporaryFolder.make(prefix: "files-missing")
        let file = try workflow(
            """
            name: Read nothing
            steps:
              - perform: Files.ReadFile
                with: { path: missing.txt }
            """, in: folder)
        let shortcuts = try ShortcutsBinary()
        let result = try await shortcuts.run(["run", file])
        #expect(result.status == 1)
        #expect(result.error.contains("There is no file or folder at \(folder.appendingPathComponent("missing.txt").path)."))
        #expect(try await shortcuts.run(["runs", "list"]).output.contains("failed"))
    }

    @Test func aFolderWhereAFileIsExpectedAndNewOverAnExistingFileAreErrors() async throws {
        let folder = try TemporaryFolder.make(prefix: "files-kinds")
        try make("kept.txt", in: folder, "precious")
        let shortcuts = try ShortcutsBinary()
        let readFolder = try await shortcuts.run(["perform", "Files.ReadFile", "path=\(folder.path)"])
        #expect(readFolder.status == 1)
        #expect(readFolder.error.contains("\(folder.standardizedFileURL.path) is a folder, not a file."))
        let new = try await shortcuts.run(["perform", "Files.WriteFile", "path=\(folder.path)/kept.txt", "content=other", "mode=new"])
        #expect(new.status == 1)
        #expect(new.error.contains("kept.txt already exists (mode: new never replaces a file; use mode: overwrite or append)."))
        #expect(try String(contentsOf: folder.appendingPathComponent("kept.txt"), encoding: .utf8) == "precious")
    }

    @Test func copyingOntoAnExistingFileNeedsOverwrite() async throws {
        let folder = try TemporaryFolder.make(prefix: "files-copy")
        try make("a.txt", in: folder, "new")
        try make("b.txt", in: folder, "old")
        let shortcuts = try ShortcutsBinary()
        let refused = try await shortcuts.run(["perform", "Files.Copy", "source=\(folder.path)/a.txt", "destination=\(folder.path)/b.txt"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("b.txt already exists (set overwrite: true to replace it)."))
        #expect(try String(contentsOf: folder.appendingPathComponent("b.txt"), encoding: .utf8) == "old")
        let replaced = try await shortcuts.run([
            "perform", "Files.Copy", "source=\(folder.path)/a.txt", "destination=\(folder.path)/b.txt", "overwrite=true"
        ])
        #expect(replaced.status == 0, "\(replaced.error)")
        #expect(try String(contentsOf: folder.appendingPathComponent("b.txt"), encoding: .utf8) == "new")
    }

    @Test func aWritePastTheFileSizeLimitFailsInWordsAndKeepsTheOldFile() async throws {
        let folder = try TemporaryFolder.make(prefix: "files-limit")
        try make("data.txt", in: folder, "old contents\n")
        let big = String(repeating: "0123456789", count: 10_000)
        // A limit of 64 blocks (32 or 64 KiB): the 100 KB write fails with EFBIG.
        let limited = ["/bin/sh", "-c", "ulimit -f 64 && exec \"$0\" \"$@\""]
        let result = try await ShortcutsBinary().run(
            ["perform", "Files.WriteFile", "path=\(folder.path)/data.txt", "content=\(big)"], launcher: limited)
        #expect(result.status == 1)
        #expect(result.error.contains("Cannot write \(folder.path)/data.txt: the file is larger than the file size limit allows."))
        #expect(try String(contentsOf: folder.appendingPathComponent("data.txt"), encoding: .utf8) == "old contents\n")
        #expect(try names(in: folder) == ["data.txt"], "the temporary file is removed")
    }

    @Test(.enabled(if: SystemComponents.available("/bin/mount", "/bin/umount", asRoot: true), "needs root to mount a small tmpfs"))
    func aFullDiskFailsTheRunAndKeepsTheOldFile() async throws {
        let folder = try TemporaryFolder.make(prefix: "files-full")
        let small = folder.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        func command(_ path: String, _ arguments: String...) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        try #require(try command("/bin/mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", small.path) == 0)
        defer { _ = try? command("/bin/umount", small.path) }
        try make("small/data.txt", in: folder, "old contents\n")
        try make("big.txt", in: folder, String(repeating: "0123456789", count: 20_000))
        let file = try workflow(
            """
            name: Fill the disk
            steps:
              - id: big
                perform: Files.ReadFile
                with: { path: big.txt }
              - perform: Files.WriteFile
                with: { path: small/data.txt, content: "${big}" }
            """, in: folder)
        let shortcuts = try ShortcutsBinary()
        let result = try await shortcuts.run(["run", file])
        #expect(result.status == 1)
        #expect(result.error.contains("Cannot write \(small.path)/data.txt: the disk is full."))
        #expect(try String(contentsOf: small.appendingPathComponent("data.txt"), encoding: .utf8) == "old contents\n")
        #expect(try names(in: small) == ["data.txt"], "the temporary file is removed")
        #expect(try await shortcuts.run(["runs", "list"]).output.contains("failed"))
    }

    @Test(
        .enabled(
            if: SystemComponents.available("/usr/bin/setpriv", asRoot: true),
            "needs root and setpriv(1) to write as a user who may not write the folder"))
    func permissionDeniedIsSaidInWords() async throws {
        let folder = try TemporaryFolder.make(prefix: "files-denied")
        try make("locked.txt", in: folder, "precious")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        let shortcuts = try ShortcutsBinary()
        let result = try await shortcuts.run(["perform", "Files.WriteFile", "path=\(folder.path)/locked.txt", "content=x"], launcher: asNobody)
        #expect(result.status == 1)
        #expect(result.error.contains("Cannot write \(folder.path)/locked.txt: permission denied."))
        #expect(try String(contentsOf: folder.appendingPathComponent("locked.txt"), encoding: .utf8) == "precious")
    }
}
