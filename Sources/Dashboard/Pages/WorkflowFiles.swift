#if Web
    import AutomationKit
    import Foundation
    import IntentKit

    /// The workflow files of the configured folder (`*.yaml`, `*.yml`, not in subfolders), found
    /// by file name, with or without its extension. Nothing outside the folder is ever read.
    ///
    /// ```swift
    /// let url = try files.url(named: "morning-digest")   // Workflows/morning-digest.yaml
    /// ```
    struct WorkflowFiles: Sendable {
        let directory: URL

        /// The file names, sorted.
        var names: [String] { AutomationFolder.workflowFileNames(in: directory) }

        /// The file of a name given in a path.
        ///
        /// - Throws: ``PageError`` 404 naming the file, with the nearest name when one is close.
        func url(named name: String) throws(PageError) -> URL {
            let names = self.names
            let found = names.first { $0 == name } ?? names.first { $0 == name + ".yaml" } ?? names.first { $0 == name + ".yml" }
            guard let found else {
                var help: [String] = []
                let stems = names.map { ($0 as NSString).deletingPathExtension }
                if let nearest = NameSuggestion.nearest(to: (name as NSString).deletingPathExtension, among: stems) {
                    help.append("did you mean '\(nearest)'?")
                }
                help.append("the workflows page lists the files of \(directory.relativePath)")
                throw PageError(.notFound, "no workflow file '\(name)' in \(directory.relativePath)", help: help)
            }
            return directory.appendingPathComponent(found)
        }

        /// The page of a file: `/workflows/NAME`, its name percent-encoded.
        static func href(_ fileName: String) -> String {
            "/workflows/" + (fileName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/", "?", "#"])) ?? fileName)
        }
    }
#endif
