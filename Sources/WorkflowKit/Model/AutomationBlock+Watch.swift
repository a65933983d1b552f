import Foundation
import IntentKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension AutomationBlock {
    /// What happened to a file of a watched folder.
    public enum FileEvent: String, Sendable, Hashable, CaseIterable, Comparable {
        /// The file appeared: created, or moved into the folder.
        case created
        /// The file's content changed.
        case modified
        /// The file went away: deleted, or moved out of the folder.
        case deleted

        public static func < (lhs: FileEvent, rhs: FileEvent) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    /// `watch:`: the workflow runs when files of a folder are created, modified or deleted.
    ///
    /// ```yaml
    /// watch:
    ///   path: ~/Downloads            # a folder; ~ is the home folder; relative to the workflow file's folder
    ///   events: [created, modified]  # default [created]
    ///   pattern: "*.pdf"             # a glob on the file's name; default every file
    ///   debounce: 1s                 # the quiet time that ends a burst of events; default 1s
    /// ```
    ///
    /// ```swift
    /// if let watch = workflow.automation?.watch, watch.matches(fileName: "report.pdf") {
    ///     print("watching", watch.folder(relativeTo: workflow.fileName).path)
    /// }
    /// ```
    public struct Watch: Sendable, Hashable {
        /// `path:` as written.
        public var path: Located<String>
        /// The events that start a run, in the order of ``FileEvent/allCases``; `[created]` by default.
        public var events: [FileEvent]
        /// `pattern:`, a glob on file names (`fnmatch`), or `nil` for every file.
        public var pattern: Located<String>?
        /// How long a file's events must pause for its burst to end; 1 second by default.
        public var debounce: Duration
        /// Where `watch:` is written.
        public var location: SourceLocation

        /// The default quiet time that ends a burst: 1 second.
        public static let defaultDebounce = Duration.seconds(1)

        /// The watched folder as an absolute path: `~` and `~/…` start at the home folder
        /// (`$HOME`), and a relative path starts at the folder of the workflow file.
        ///
        /// ```swift
        /// watch.folder(relativeTo: "Workflows/sort.yaml")   // /home/me/project/Workflows/inbox for `path: inbox`
        /// ```
        ///
        /// - Parameter workflowFile: The workflow file's path (``Workflow/fileName``).
        /// - Returns: The folder's standardized file URL.
        public func folder(relativeTo workflowFile: String) -> URL {
            let text = HomeFolder.expandingTilde(path.value)
            if text.hasPrefix("/") { return URL(fileURLWithPath: text, isDirectory: true).standardizedFileURL }
            let base = URL(fileURLWithPath: workflowFile).deletingLastPathComponent()
            return base.appendingPathComponent(text, isDirectory: true).standardizedFileURL
        }

        /// Whether a file's name matches ``pattern`` (`fnmatch`, where `*` matches names
        /// starting with a dot too); every name does without a pattern.
        ///
        /// ```swift
        /// watch.matches(fileName: "invoice.pdf")   // true for pattern: "*.pdf"
        /// ```
        ///
        /// - Parameter fileName: The file's name, without its folder.
        /// - Returns: Whether events of the file count.
        public func matches(fileName: String) -> Bool {
            guard let pattern else { return true }
            return fnmatch(pattern.value, fileName, 0) == 0
        }
    }
}
