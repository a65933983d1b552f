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
/// reported in ``problems`` and not scheduled; the other files are unaffected. A webhook name
/// is unique in a folder: of two files that declare the same, the second by file name is a
/// problem, located at its `webhook:` name, until the first is renamed or removed.
///
/// ```swift
/// let folder = AutomationFolder.load(URL(fileURLWithPath: "Workflows"), catalog: catalog)
/// for problem in folder.problems { print(problem.rendered()) }
/// print(folder.automations.map(\.name))
/// if let deploy = folder.webhooks["deploy"] { print(deploy.file.path) }
/// ```
public struct AutomationFolder: Sendable {
    /// The folder.
    public let directory: URL
    /// The valid automations, enabled or not, whatever their triggers, sorted by file name.
    public var automations: [Automation] {
        files.filter { conflicts[$0.key] == nil }.values.compactMap(\.automation).sorted { $0.fileName < $1.fileName }
    }
    /// The files that did not load or validate, with every located error, sorted by file name.
    public var problems: [DiagnosticError] {
        files.keys.sorted().compactMap { files[$0]?.problem ?? conflicts[$0] }
    }
    /// The valid automations with a `webhook:`, enabled or not, by webhook name: what a web
    /// server runs on a request to `/hooks/NAME`.
    ///
    /// ```swift
    /// guard let automation = folder.webhooks[name], automation.isEnabled else { return .notFound }
    /// ```
    public var webhooks: [String: Automation] {
        Dictionary(automations.compactMap { automation in automation.webhook.map { ($0.name.value, automation) } }) { first, _ in first }
    }
    /// The valid automations with a `watch:`, enabled or not, sorted by file name.
    public var watches: [Automation] { automations.filter { $0.watch != nil } }

    /// What each file held when it was last read, by file name.
    var files: [String: LoadedFile]
    /// The files whose valid automation takes a webhook name an earlier file has, by file name.
    var conflicts: [String: DiagnosticError] = [:]
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
        let before = Dictionary(automations.map { ($0.key, $0) }) { first, _ in first }
        let conflictsBefore = conflicts
        var changed: Set<String> = []
        var problems: [DiagnosticError] = []
        var read: Set<String> = []
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
            read.insert(name)
        }
        conflicts = Self.webhookConflicts(among: files)
        for (name, conflict) in conflicts.sorted(by: { $0.key < $1.key }) where read.contains(name) || conflictsBefore[name] == nil {
            problems.append(conflict)
        }
        // A file whose webhook name another file freed or took changes too.
        let after = Dictionary(automations.map { ($0.key, $0) }) { first, _ in first }
        for key in Set(before.keys).union(after.keys) where before[key] !== after[key] { changed.insert(key) }
        return (changed, problems)
    }

    /// The files whose automation's webhook name a file before them (by name) has, with the
    /// error located at their `webhook:` name.
    static func webhookConflicts(among files: [String: LoadedFile]) -> [String: DiagnosticError] {
        let named = files.sorted { $0.key < $1.key }.compactMap { name, file in
            file.automation?.webhook.map { (name: name, webhook: $0) }
        }
        guard Set(named.map(\.webhook.name.value)).count < named.count else { return [:] }
        var conflicts: [String: DiagnosticError] = [:]
        for diagnostic in WorkflowValidator.duplicateWebhookDiagnostics(named.map(\.webhook)) {
            guard let name = named.first(where: { $0.webhook.name.location == diagnostic.location })?.name else { continue }
            let file = diagnostic.location.file
            let text = try? String(contentsOfFile: file, encoding: .utf8)
            conflicts[name] = DiagnosticError([diagnostic], sources: text.map { [file: $0] } ?? [:])
        }
        return conflicts
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
        WorkflowLoader.workflowFileNames(in: directory)
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
