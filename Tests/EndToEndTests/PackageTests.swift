import Foundation
import PostgresStorage
import ShortcutsSystemTestSupport
import Testing

/// `Scripts/package` makes a Debian package and a tarball of the built binary; installed with
/// `dpkg` into an empty root, the package gives a working `shortcuts`: a person's first day, from
/// `shortcuts new backup --from backup` to the runs in `runs list` and on the dashboard.
@Suite(
    .enabled(
        if: SystemComponents.available("/usr/bin/dpkg-deb") && SystemComponents.available("/usr/bin/readelf"),
        "needs dpkg-deb and readelf (apt install dpkg binutils)"),
    .endToEnd)
struct PackageTests {
    /// Runs a program to its end and returns what it wrote; fails the test when it fails.
    private func run(_ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) async throws
        -> BackgroundProgram.Result
    {
        let program = try BackgroundProgram(
            executable: executable, arguments: arguments, in: directory,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        return try await program.finish()
    }

    @Test("The package installs with dpkg into an empty root, and its shortcuts runs the main job, a template as a service and the dashboard")
    func installedPackageWorks() async throws {
        let folder = try TemporaryFolder.make(prefix: "package")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("dist")
        let packaged = try await run(
            PackagePaths.file("Scripts/package").path,
            ["--binary", ShortcutsBinary.executable.path, "--no-manual", "--quick", "--output", output.path])
        #expect(packaged.status == 0, "\(packaged.error)")
        let files = packaged.output.split(separator: "\n").map(String.init)
        let deb = try #require(files.first { $0.hasSuffix(".deb") }, "\(packaged.output)")
        let tarball = try #require(files.first { $0.hasSuffix(".tar.gz") })

        let fields = try await run("/usr/bin/dpkg-deb", ["--field", deb, "Package", "Version", "Depends"])
        #expect(fields.output.hasPrefix("Package: shortcuts\nVersion: "), "\(fields.output)")
        #expect(fields.output.contains("libsqlite3-0") && fields.output.contains("libc6"), "\(fields.output)")
        // A build with PostgreSQL support links libpq, PostgreSQL's client library.
        #expect(fields.output.contains("libpq5") == PostgresSupport.isBuiltIn, "\(fields.output)")
        let listed = try await run("/bin/tar", ["-tzf", tarball])
        let version = try #require(URL(fileURLWithPath: tarball).lastPathComponent.split(separator: "-").dropFirst().first)
        let contents = [
            "bin/shortcuts", "share/bash-completion/completions/shortcuts", "lib/systemd/user/shortcuts.service",
            "share/shortcuts/workflow.schema.json", "share/doc/shortcuts/examples/add-and-open.yaml"
        ]
        for path in contents {
            #expect(listed.output.contains("shortcuts-\(version)/\(path)\n"), "the tarball has \(path)")
        }

        // An empty root with dpkg's database: what a fresh machine's dpkg installs into.
        let root = folder.appendingPathComponent("root")
        let database = root.appendingPathComponent("var/lib/dpkg")
        try FileManager.default.createDirectory(at: database.appendingPathComponent("info"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: database.appendingPathComponent("updates"), withIntermediateDirectories: true)
        for name in ["status", "available"] { try Data().write(to: database.appendingPathComponent(name)) }
        // Its libraries are the machine's: the empty root has none of the packages it depends on.
        let installed = try await run("/usr/bin/dpkg", ["--root=\(root.path)", "--force-depends", "--force-not-root", "--log=/dev/null", "-i", deb])
        #expect(installed.status == 0, "\(installed.output)\(installed.error)")
        let status = try await run("/usr/bin/dpkg", ["--root=\(root.path)", "-s", "shortcuts"])
        #expect(status.output.contains("Status: install ok installed"), "\(status.output)")

        let shortcuts = try ShortcutsBinary(executable: root.appendingPathComponent("usr/bin/shortcuts"))
        let reported = try await shortcuts.run(["--version"])
        #expect(reported.output.hasPrefix("\(version)"), "\(reported.output)")
        for file in [
            "usr/share/bash-completion/completions/shortcuts", "usr/share/zsh/vendor-completions/_shortcuts",
            "usr/share/fish/vendor_completions.d/shortcuts.fish"
        ] {
            let script = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            #expect(script.contains("---completion"), "\(file)")
        }
        let schema = try Data(contentsOf: root.appendingPathComponent("usr/share/shortcuts/workflow.schema.json"))
        #expect((try JSONSerialization.jsonObject(with: schema) as? [String: Any])?["$schema"] != nil)

        // README's main job, on the examples the package carries.
        let work = folder.appendingPathComponent("work")
        let workflows = work.appendingPathComponent("Workflows")
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        let examples = root.appendingPathComponent("usr/share/doc/shortcuts/examples")
        try FileManager.default.copyItem(
            at: examples.appendingPathComponent("add-and-open.yaml"), to: workflows.appendingPathComponent("add-and-open.yaml"))
        let main = try await shortcuts.run(["run", "Workflows/add-and-open.yaml"], in: work)
        #expect(main.status == 0, "\(main.error)")
        #expect(main.output == (try InstallTests.readmeTranscript()))

        // The first day: a template, one line edited, run once, as a user service, its runs listed.
        let documents = work.appendingPathComponent("Documents")
        try TemporaryFolder.write(["notes.txt": "keep me\n"], in: documents)
        let new = try await shortcuts.run(["new", "backup", "--from", "backup"], in: work)
        #expect(new.status == 0, "\(new.error)")
        let file = workflows.appendingPathComponent("backup.yaml")
        let template = try String(contentsOf: file, encoding: .utf8)
        let edited = template.replacingOccurrences(of: "default: ~/Documents", with: "default: \(documents.path)")
        #expect(edited != template, "the source folder is one line of the template")
        try edited.write(to: file, atomically: true, encoding: .utf8)
        let backups = ["HOME": work.path]
        let ranOnce = try await shortcuts.run(["run", "Workflows/backup.yaml"], in: work, environment: backups)
        #expect(ranOnce.status == 0, "\(ranOnce.error)")
        let archives = try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("Backups").path)
        #expect(archives.count == 1 && archives[0].hasSuffix(".tar.gz"), "\(archives)")

        let unit = try await shortcuts.run(
            ["service", "install", "--print", "--workflows", workflows.path, "--executable", root.appendingPathComponent("usr/bin/shortcuts").path],
            in: work)
        #expect(unit.status == 0, "\(unit.error)")
        let execStart = try #require(unit.output.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        #expect(execStart.contains("daemon --workflows \(workflows.path)"))
        // What systemd would start: the unit's command, as a program of its own, until it has scheduled the backup.
        let words = execStart.dropFirst("ExecStart=".count).split(separator: " ").map(String.init)
        let service = try shortcuts.start(Array(words.dropFirst()), in: work, environment: ["HOME": work.path])
        try await service.waitForOutput("the backup scheduled") { $0.contains("scheduling 1 automation from") }
        #expect(try await service.stop().status == 0)

        let runs = try await shortcuts.run(["runs", "list"], in: work)
        #expect(runs.output.contains("Backup") && runs.output.contains("succeeded"), "\(runs.output)")
        let shown = try await shortcuts.run(["runs", "show"], in: work)
        #expect(shown.status == 0 && shown.output.contains("Backup (") && shown.output.contains("\"tar\""), "\(shown.output)")

        // The dashboard, when the package was built with it.
        let help = try await shortcuts.run(["--help"])
        if help.output.contains("  serve ") {
            let dashboard = try await detached { try DashboardProcess(shortcuts, arguments: ["serve", "--http", "127.0.0.1:0"], in: work) }
            let page = try await fetch(dashboard.url.appendingPathComponent("runs"))
            #expect(page.status == 200 && page.body.contains("Backup"), "\(page.body.prefix(500))")
            #expect(try await detached { dashboard.stop() } == 0)
        } else {
            let refused = try await shortcuts.run(["serve"], in: work)
            #expect(refused.error.contains("help: build shortcuts with the web dashboard: swift build --traits Web"))
        }

        // The units the package installs, checked by systemd with the package's binary in place of /usr/bin's.
        if SystemComponents.available("/usr/bin/systemd-analyze") {
            for (scope, relative) in [("--user", "usr/lib/systemd/user/shortcuts.service"), ("--system", "usr/lib/systemd/system/shortcuts.service")]
            {
                let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                let copy = folder.appendingPathComponent("verify\(scope)/shortcuts.service")
                try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.replacingOccurrences(of: "/usr/bin/shortcuts", with: root.appendingPathComponent("usr/bin/shortcuts").path)
                    .write(to: copy, atomically: true, encoding: .utf8)
                let runtime = try TemporaryFolder.make(prefix: "runtime")
                defer { try? FileManager.default.removeItem(at: runtime) }
                let verified = try await run("/usr/bin/systemd-analyze", [scope, "verify", copy.path], environment: ["XDG_RUNTIME_DIR": runtime.path])
                #expect(verified.status == 0 && verified.error.isEmpty, "\(scope): \(verified.error)")
            }
        }
    }
}
