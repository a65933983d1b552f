import AutomationKit
import Foundation
import IntentKit
import WorkflowKit

/// Finds workflow files: by path, or by name in `./Workflows` (file name or `name:`).
enum WorkflowFiles {
    /// The folder workflows are found in by name, relative to the working directory.
    static let folderName = "Workflows"

    /// Finds a workflow by path or by name.
    ///
    /// - Throws: ``CommandLineError`` naming the path or name, why it is not a workflow file,
    ///   and what to do instead.
    static func find(_ reference: String) throws -> URL {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: reference, isDirectory: &isFolder) {
            if isFolder.boolValue {
                let inside = all(in: URL(fileURLWithPath: reference)).first.map { ", such as \($0.relativePath)" } ?? ""
                throw CommandLineError(
                    FileProblem(
                        role: "the workflow", path: reference, reason: "it is a folder, not a workflow file",
                        hint: "give a .yaml file\(inside)"))
            }
            try FileProblem.checkReadableFile(reference, role: "the workflow", hint: "check the file's permissions")
            return URL(fileURLWithPath: reference)
        }
        let folder = URL(fileURLWithPath: folderName)
        for candidate in [reference + ".yaml", reference + ".yml"] {
            let url = folder.appendingPathComponent(candidate)
            if manager.fileExists(atPath: url.path) { return url }
        }
        for url in all(in: folder) {
            if let workflow = try? WorkflowLoader.load(contentsOf: url), workflow.name?.value == reference { return url }
        }
        let command = Installation.shared.commandName
        guard folderExists else {
            throw CommandLineError(
                "no workflow file '\(reference)', and no ./\(folderName) folder to find it by name",
                help: ["give the path of a workflow file, or run \(command) in the folder that holds \(folderName)/"])
        }
        let names = all(in: folder).map { $0.deletingPathExtension().lastPathComponent }
        var help: [String] = []
        if let nearest = NameSuggestion.nearest(to: reference, among: names) { help.append("did you mean '\(nearest)'?") }
        help.append("`\(command) list workflows` lists the workflows in ./\(folderName)")
        throw CommandLineError("no workflow file or name '\(reference)'", help: help)
    }

    /// Whether `./Workflows` exists.
    static var folderExists: Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folderName, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// Checks that `./Workflows` exists.
    ///
    /// - Throws: ``CommandLineError`` naming the folder, exit 1.
    static func requireFolder() throws {
        guard folderExists else {
            let here = FileManager.default.currentDirectoryPath
            throw CommandLineError(
                "no folder ./\(folderName) in \(here)",
                help: ["run \(Installation.shared.commandName) in the folder that holds \(folderName)/"])
        }
    }

    /// The `.yaml` and `.yml` files of a folder (regular files only), sorted; none when it cannot be read.
    static func all(in folder: URL) -> [URL] {
        WorkflowLoader.workflowFileNames(in: folder, includingHidden: true).map { folder.appendingPathComponent($0) }
    }

    /// Loads and validates a workflow.
    ///
    /// - Throws: ``CommandLineError`` with every diagnostic, located.
    static func loadValid(_ url: URL, isHeadless: Bool, answered: Set<String>) throws -> Workflow {
        let workflow: Workflow
        let validator = WorkflowValidator(
            catalog: Installation.shared.catalog, isHeadless: isHeadless, answeredNames: answered, secrets: SecretStore.standard())
        do {
            workflow = try WorkflowLoader.load(contentsOf: url)
        } catch {
            throw CommandLineError(error.addingDiagnostics(of: validator.check))
        }
        let (diagnostics, sources) = validator.check(workflow)
        if !diagnostics.isEmpty { throw CommandLineError(DiagnosticError(diagnostics, sources: sources)) }
        return workflow
    }
}
