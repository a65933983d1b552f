import Foundation
import IntentKit
import WorkflowKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The automations of a folder of workflow files (`*.yaml`, `*.yml`, not in subfolders).
///
/// Every file is loaded; those with an `automation:` block are validated as headless runs
/// with WorkflowKit's `WorkflowValidator`. Files without the block are plain workflows (maybe run by an
/// automation through `run:`) and are left alone. A file that does not load or validate is
/// reported in ``problems`` and not scheduled; the other files are unaffected.
///
/// ```swift
/// let folder = AutomationFolder.load(URL(fileURLWithPath: "Workflows"), catalog: catalog)
/// for problem in folder.problems { print(problem.rendered()) }
/// print(folder.automations.map(\.name))
/// ```
public struct AutomationFolder: Sendable {
    /// The folder.
    public let directory: URL
    /// The valid automations, enabled or not, sorted by file name.
    public var automations: [Automation] { files.values.compactMap(\.automation).sorted { $0.fileName < $1.fileName } }
    /// The files that did not load or validate, with every located error, sorted by file name.
    public var problems: [DiagnosticError] { files.sorted { $0.key < $1.key }.compactMap(\.value.problem) }

    /// What each file held when it was last read, by file name.
    var files: [String: LoadedFile]
    let catalog: IntentCatalog

    struct LoadedFile: Sendable {
        var signature: FileSignature
        var automation: Automation?
        var problem: DiagnosticError?
    }

    /// Loads every workflow file of a folder.
    ///
    /// ```swift
    /// let folder = AutomationFolder.load(URL(fileURLWithPath: "Workflows"), catalog: catalog)
    /// ```
    ///
    /// - Parameters:
    ///   - directory: The folder; a missing folder has no automations.
    ///   - catalog: The installed apps, to validate the workflows against.
    /// - Returns: The folder's automations and problems.
    public static func load(_ directory: URL, catalog: IntentCatalog) -> AutomationFolder {
        var folder = AutomationFolder(directory: directory, files: [:], catalog: catalog)
        _ = folder.reload()
        return folder
    }

    /// Reads again the files that changed since the last read (by size, modification time and
    /// inode), adds new files and forgets deleted ones.
    ///
    /// - Parameter names: The file names known to have changed, or `nil` to check every file.
    /// - Returns: The keys of the automations that were added, changed or removed, and the
    ///   problems of the files that were read.
    mutating func reload(names: Set<String>? = nil) -> (keys: Set<String>, problems: [DiagnosticError]) {
        var changed: Set<String> = []
        var problems: [DiagnosticError] = []
        let listed = Set(Self.workflowFileNames(in: directory))
        let candidates = names.map { $0.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") } } ?? listed.union(files.keys)
        for name in candidates.sorted() {
            let url = directory.appendingPathComponent(name)
            let previous = files[name]
            guard listed.contains(name), let signature = FileSignature(path: url.path) else {
                if let gone = previous?.automation { changed.insert(gone.key) }
                files[name] = nil
                continue
            }
            if let previous, previous.signature == signature { continue }
            let loaded = Self.read(url, signature: signature, catalog: catalog)
            if let key = previous?.automation?.key { changed.insert(key) }
            if let key = loaded.automation?.key { changed.insert(key) }
            if let problem = loaded.problem { problems.append(problem) }
            files[name] = loaded
        }
        return (changed, problems)
    }

    private static func read(_ url: URL, signature: FileSignature, catalog: IntentCatalog) -> LoadedFile {
        let workflow: Workflow
        do {
            workflow = try WorkflowLoader.load(contentsOf: url)
        } catch {
            return LoadedFile(signature: signature, automation: nil, problem: error)
        }
        guard workflow.automation != nil else { return LoadedFile(signature: signature, automation: nil, problem: nil) }
        let (diagnostics, sources) = WorkflowValidator(catalog: catalog).check(workflow)
        guard diagnostics.isEmpty, let automation = Automation(workflow: workflow, file: url) else {
            return LoadedFile(signature: signature, automation: nil, problem: DiagnosticError(diagnostics, sources: sources))
        }
        return LoadedFile(signature: signature, automation: automation, problem: nil)
    }

    /// The names of the workflow files directly in a folder, sorted.
    package static func workflowFileNames(in directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { ($0.hasSuffix(".yaml") || $0.hasSuffix(".yml")) && !$0.hasPrefix(".") }.sorted()
    }
}

/// What tells a file's versions apart without reading it: size, modification time, inode.
struct FileSignature: Hashable, Sendable {
    var size: Int64
    var modifiedNanoseconds: Int64
    var inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Glibc)
            let modified = info.st_mtim
        #else
            let modified = info.st_mtimespec
        #endif
        size = Int64(info.st_size)
        modifiedNanoseconds = Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec)
        inode = UInt64(info.st_ino)
    }
}
