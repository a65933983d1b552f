import Foundation
import WorkflowKit

/// The workflows `shortcuts new` starts from: commented files for common chores, compiled into
/// the binary (`Resources/Templates`), each made for a name.
///
/// ```swift
/// let template = try #require(WorkflowTemplate.named("backup"))
/// let text = template.text(name: "Photos backup", file: "Workflows/photos-backup.yaml")
/// ```
struct WorkflowTemplate: Sendable {
    /// The template's name, as `--from` takes it: `blank`, `schedule`, `backup`…
    var name: String
    /// The file's text, with `{{name}}`, `{{file}}`, `{{slug}}` and `{{secret}}` to fill in.
    var source: String

    /// Every template, `blank` first, then by name.
    static let all: [WorkflowTemplate] = ShortcutsCLIResources.files.compactMap { path, text -> WorkflowTemplate? in
        guard path.hasPrefix("Templates/"), path.hasSuffix(".yaml") else { return nil }
        return WorkflowTemplate(name: String(path.dropFirst("Templates/".count).dropLast(".yaml".count)), source: text)
    }.sorted { ($0.name == "blank" ? 0 : 1, $0.name) < ($1.name == "blank" ? 0 : 1, $1.name) }

    /// The template of a name, or `nil`.
    static func named(_ name: String) -> WorkflowTemplate? { all.first { $0.name == name } }

    /// What the template's workflow does: its `description:`.
    var summary: String {
        (try? WorkflowLoader.load(text: text(name: "Example", file: "example.yaml"), fileName: "example.yaml"))?.description?.value ?? ""
    }

    /// The workflow for a name, written to `file`.
    ///
    /// - Parameters:
    ///   - name: The workflow's `name:`, such as `Photos backup`.
    ///   - file: Where it is written, for the commands its comments show.
    func text(name: String, file: String) -> String {
        let slug = Self.slug(name)
        return
            source
            .replacingOccurrences(of: "{{name}}", with: name)
            .replacingOccurrences(of: "{{file}}", with: file)
            .replacingOccurrences(of: "{{slug}}", with: slug)
            .replacingOccurrences(of: "{{secret}}", with: slug.uppercased().replacingOccurrences(of: "-", with: "_"))
    }

    /// A name as a workflow's title: `photos-backup` is `Photos backup`.
    static func title(_ name: String) -> String {
        let spaced = name.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        return spaced.prefix(1).uppercased() + spaced.dropFirst()
    }

    /// A name as a webhook's: lowercase letters, digits and `-`, such as `photos-backup`.
    static func slug(_ name: String) -> String {
        var slug = ""
        for character in name.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                slug.append(character)
            } else if !slug.isEmpty && slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? "workflow" : slug
    }
}
