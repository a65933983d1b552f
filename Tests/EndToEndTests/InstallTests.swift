import BuiltInApps
import Dashboard
import Foundation
import LibraryApp
import ShortcutsCLI
import Testing
import WorkflowKit

/// The binary is complete on its own: copied alone anywhere, it runs README's main job.
@Suite(.endToEnd)
struct InstallTests {
    @Test func embeddedResourcesMatchTheFiles() throws {
        let folders: [(String, [String: String])] = [
            ("Sources/WorkflowKit/Resources", WorkflowKitResources.files),
            ("Examples/Library/Sources/Resources", LibraryResources.files),
            ("Sources/BuiltInApps/Resources", BuiltInAppsResources.files),
            ("Sources/Dashboard/Resources", DashboardResources.files),
            ("Sources/ShortcutsCLI/Resources", ShortcutsCLIResources.files)
        ]
        for (folder, embedded) in folders {
            let root = PackagePaths.file(folder)
            let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
            var files: [String: String] = [:]
            while let path = enumerator.nextObject() as? String {
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder)
                guard !isFolder.boolValue, !path.hasSuffix(".swift") else { continue }
                files[path] = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            }
            #expect(embedded.keys.sorted() == files.keys.sorted(), "run Scripts/embed-resources after changing \(folder)")
            for (path, text) in files {
                #expect(embedded[path] == text, "\(folder)/\(path) changed: run Scripts/embed-resources")
            }
        }
    }

    @Test func theBinaryCopiedAloneRunsTheMainJob() async throws {
        let folder = try TemporaryFolder.make(prefix: "shortcuts-install")
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("bin/shortcuts")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Copied by cp(1), so that no process that other tests start meanwhile inherits the
        // copy's open descriptor (which would make running it fail with "Text file busy").
        let cp = try Process.run(URL(fileURLWithPath: "/bin/cp"), arguments: [ShortcutsBinary.executable.path, copy.path])
        cp.waitUntilExit()
        try #require(cp.terminationStatus == 0, "cannot copy \(ShortcutsBinary.executable.path)")
        let workflows = folder.appendingPathComponent("Workflows")
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: PackagePaths.file("Workflows/add-and-open.yaml"),
            to: workflows.appendingPathComponent("add-and-open.yaml"))
        let shortcuts = try ShortcutsBinary(executable: copy)
        let result = try await shortcuts.run(["run", "Workflows/add-and-open.yaml"], in: folder)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == (try Self.readmeTranscript()))
        let schema = try await shortcuts.run(["schema", "--general"], in: folder)
        #expect(schema.status == 0, "\(schema.error)")
        #expect(schema.output == (try String(contentsOf: PackagePaths.file("Schemas/workflow.schema.json"), encoding: .utf8)) + "\n")
        let japanese = try await shortcuts.run(["view", "Library.OpenShelf", "--locale", "ja"], in: folder)
        #expect(japanese.output.hasPrefix("Library.OpenShelf — 本棚を開く"))
    }

    /// The output README's "Set up" section shows for the main job.
    static func readmeTranscript() throws -> String {
        let readme = try String(contentsOf: PackagePaths.file("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "newest, and opens each:\n\n```\n"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        return String(readme[start.upperBound..<end.lowerBound])
    }

    @Test func theManualGeneratorReadsEveryCommand() async throws {
        // `swift package generate-manual` renders this description into shortcuts.1.
        let result = try await ShortcutsBinary().run(["--experimental-dump-help"])
        #expect(result.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let command = try #require(document["command"] as? [String: Any])
        #expect(command["commandName"] as? String == "shortcuts")
        let names = (command["subcommands"] as? [[String: Any]])?.compactMap { $0["commandName"] as? String } ?? []
        #expect(Set(["run", "perform", "validate", "list", "view", "metadata", "schema", "say"]).isSubset(of: Set(names)))
    }

    @Test func versionIsPrinted() async throws {
        let result = try await ShortcutsBinary().run(["--version"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("0.1.0"))
    }
}
