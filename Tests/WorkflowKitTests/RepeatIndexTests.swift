import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// `${index}` counts from 1 in both kinds of `repeat:`, as Apple Shortcuts' Repeat Index
/// does, and every document says so.
@Suite("Repeat index")
struct RepeatIndexTests {
    func output(_ text: String) async throws -> IntentValue {
        let workflow = try WorkflowLoader.load(text: text, fileName: "index.yaml")
        #expect(WorkflowValidator(catalog: IntentCatalog(apps: [])).validate(workflow).isEmpty)
        return try await WorkflowRunner(catalog: IntentCatalog(apps: [])).run(workflow).output
    }

    @Test func countsFromOneInBothModes() async throws {
        let counted = try await output(
            """
            steps:
              - repeat: { count: 3 }
                steps: [ { append: "${index}", to: seen } ]
            output: ${seen}
            """)
        #expect(counted == .list([.int(1), .int(2), .int(3)]))
        let each = try await output(
            """
            steps:
              - set: names
                to: [a, b]
              - repeat: { each: "${names}", as: name }
                steps: [ { append: "${index}. ${name}", to: seen } ]
            output: ${seen}
            """)
        #expect(each == .list([.string("1. a"), .string("2. b")]))
    }

    @Test func theDocumentsSayOne() throws {
        let documents = [
            "README.md", "Schemas/workflow.schema.json", "Sources/WorkflowKit/Resources/workflow.schema.json",
            "Sources/WorkflowKit/WorkflowKit.docc/WorkflowFileFormat.md", "Sources/WorkflowKit/Model/Steps/RepeatStep.swift"
        ]
        for document in documents {
            let text = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(document), encoding: .utf8)
            #expect(
                ["counts from 1", "counting from 1", "counts iterations from 1"].contains { text.contains($0) },
                "\(document) does not say where ${index} starts")
            for wrong in ["${index}` from 0", "${index}` counts from 0", "counts iterations from 0", "zero-based iteration"] {
                #expect(!text.contains(wrong), "\(document) says \(wrong)")
            }
        }
    }
}
