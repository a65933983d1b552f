import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// A `File` value — a watch trigger's `file`, an input of type `File` — reads as the Files
/// article says: `name`, `extension`, `folder`, `size` and `modified` as properties, and its
/// path wherever text is expected.
@Suite("File values")
struct FileValueTests {
    private let workflow = """
        input:
          file: { type: File }
        steps:
          - set: parts
            to: ${split(input.file, "/")}
        output:
          name: ${input.file.name}
          extension: ${input.file.extension}
          folder: ${input.file.folder}
          size: ${input.file.size}
          modified: ${input.file.modified.year}
          last: ${parts.last}
          upper: ${upper(input.file.name)}
          text: "saw ${input.file}"
        """

    @Test("A file's properties are read, and it is its path as text, validated and at run time")
    func propertiesAndText() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("file-values-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("report.pdf")
        try Data("12345".utf8).write(to: file)
        let result = try await InlineWorkflow.run(workflow, fileName: "f.yaml", inputs: ["file": .string(file.path)])
        let year = Calendar.current.component(.year, from: Date())
        #expect(
            result.output
                == .dictionary([
                    "name": .string("report.pdf"), "extension": .string("pdf"), "folder": .string(folder.path), "size": .int(5),
                    "modified": .int(year), "last": .string("report.pdf"), "upper": .string("REPORT.PDF"), "text": .string("saw \(file.path)")
                ]))
    }

    @Test("A file that is gone has no size nor modification time, and the rest of its properties")
    func goneFile() async throws {
        let gone = "/nonexistent-\(UUID().uuidString)/notes.txt"
        let result = try await InlineWorkflow.run(
            """
            input:
              file: { type: File }
            steps: [ { comment: reads the file's properties } ]
            output: [ "${input.file.name}", "${input.file.extension}", "${input.file.folder}", "${input.file.size}", "${input.file.modified}" ]
            """, fileName: "g.yaml", inputs: ["file": .string(gone)])
        #expect(result.output == .list([.string("notes.txt"), .string("txt"), .string((gone as NSString).deletingLastPathComponent), .null, .null]))
    }

    @Test("An unknown property of a file is a validation error that lists the known ones")
    func unknownProperty() throws {
        let workflow = try WorkflowLoader.load(
            text: "input:\n  file: { type: File }\nsteps: [ { comment: x } ]\noutput: ${input.file.nmae}\n", fileName: "u.yaml")
        let problems = WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow)
        #expect(problems.map(\.message) == ["File has no property 'nmae'"])
        #expect(problems.first?.help == "did you mean 'name'?")
    }
}
