import Foundation

/// Where a `run:` step's workflow file is, confined to the folders a workflow may reach.
///
/// A nested workflow is looked up relative to the folder of the workflow that names it, then
/// relative to the current folder; a name without `.yaml` also finds `NAME.yaml`. Whatever is
/// found must, once every symbolic link is resolved, be a `.yaml` or `.yml` file inside the
/// naming workflow's folder or inside the workflows folder (`./Workflows`). Anything else —
/// `../../etc/passwd`, `/proc/self/environ`, an absolute path elsewhere, a link that leads
/// out — is refused with a located error that never shows the file's content.
///
/// ```swift
/// let url = try NestedWorkflows.resolve(step.workflow, from: workflow)
/// ```
enum NestedWorkflows {
    /// The workflows folder: `Workflows` in the current folder.
    static var workflowsFolder: URL {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Workflows", isDirectory: true)
    }

    /// Finds the file a `run:` step names.
    ///
    /// - Parameters:
    ///   - reference: The `run:` value, with its location.
    ///   - workflow: The workflow whose step names it.
    /// - Returns: The file, as found (relative when the reference is), so errors name it as written.
    /// - Throws: ``WorkflowRunError`` located at the reference when no file is found or the
    ///   file found is outside the allowed folders or is not a workflow file.
    static func resolve(_ reference: Located<String>, from workflow: Workflow) throws -> URL {
        let base = URL(fileURLWithPath: workflow.fileName).deletingLastPathComponent()
        let roots = [base, workflowsFolder].compactMap(realPath)
        let names =
            reference.value.hasSuffix(".yaml") || reference.value.hasSuffix(".yml")
            ? [reference.value] : [reference.value, reference.value + ".yaml", reference.value + ".yml"]
        var refused: String?
        for name in names {
            for folder in [base, URL(fileURLWithPath: FileManager.default.currentDirectoryPath)] {
                let candidate = name.hasPrefix("/") ? URL(fileURLWithPath: name) : folder.appendingPathComponent(name)
                guard let resolved = realPath(candidate) else { continue }
                guard roots.contains(where: { resolved.hasPrefix($0 + "/") }) else {
                    refused = refused ?? "'\(reference.value)' is outside the folder of '\(workflow.fileName)'"
                    continue
                }
                guard resolved.hasSuffix(".yaml") || resolved.hasSuffix(".yml") else {
                    refused = refused ?? "'\(reference.value)' is not a workflow file (.yaml or .yml)"
                    continue
                }
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder), !isFolder.boolValue else {
                    refused = refused ?? "'\(reference.value)' is a folder, not a workflow file"
                    continue
                }
                return candidate
            }
        }
        if let refused {
            throw WorkflowRunError(
                refused, at: reference.location,
                help: "a nested workflow must be a .yaml file in the folder of '\(workflow.fileName)' "
                    + "or in the workflows folder, after following links")
        }
        throw WorkflowRunError(
            "no workflow file '\(reference.value)'", at: reference.location,
            help: "paths are relative to the folder of '\(workflow.fileName)'")
    }

    /// The path that identifies a workflow file in a chain of `run:` steps: its real path
    /// when it exists, so that a link to a file and the file are one workflow.
    static func identity(ofFile path: String) -> String {
        realPath(URL(fileURLWithPath: path)) ?? URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The absolute path of an existing file or folder with every symbolic link and `..` resolved.
    static func realPath(_ url: URL) -> String? {
        guard let resolved = realpath(url.path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
