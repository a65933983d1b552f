import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// `input:` entries with `type`, `default`, `description` and `required`, checked by the
/// validator and converted when the workflow runs.
@Suite("Typed inputs")
struct TypedInputTests {
    let catalog = IntentCatalog(apps: [])

    func load(_ text: String) throws -> Workflow { try WorkflowLoader.load(text: text, fileName: "inputs.yaml") }

    func run(_ text: String, inputs: [String: IntentValue]) async throws -> IntentValue {
        try await WorkflowRunner(catalog: catalog, secrets: nil).run(try load(text), inputs: inputs).output
    }

    static let typed = """
        input:
          count: { type: number, default: 2, description: How many }
          whole: { type: integer, default: 3 }
          flag: { type: boolean, default: false }
          day: { type: date, default: 2024-02-29 }
          words: { type: list, default: [a, 1] }
          names: { type: "[text]", default: [x, y] }
          note: { type: text, required: false }
        steps: []
        output: { count: "${input.count}", whole: "${input.whole}", flag: "${input.flag}", words: "${input.words}", note: "${input.note}" }
        """

    @Test func aliasesAndDefaultsGiveTypedValues() async throws {
        #expect(WorkflowValidator(catalog: catalog).validate(try load(Self.typed)).isEmpty)
        let output = try await run(Self.typed, inputs: ["whole": .string("7"), "flag": .string("true")])
        #expect(
            output
                == .dictionary([
                    "count": .double(2), "whole": .int(7), "flag": .bool(true), "words": .list([.string("a"), .int(1)]), "note": .null
                ]))
    }

    @Test func aWrongValueNamesTheInputAndItsType() async throws {
        await #expect {
            try await run(Self.typed, inputs: ["whole": .string("many")])
        } throws: { error in
            "\(error)".contains("inputs.yaml:3:3: error: input 'whole' expects integer: cannot use String 'many' as Int")
        }
        await #expect {
            try await run(Self.typed, inputs: ["day": .string("someday")])
        } throws: { error in
            "\(error)".contains("input 'day' expects date")
        }
    }

    @Test func aDefaultOfTheWrongTypeIsLocated() throws {
        let workflow = try load(
            """
            input:
              count: { type: Int, default: three }
              names: { type: "[Int]", default: [1, two] }
              when: { type: Date, default: 2024-02-29 }
            steps: []
            """)
        let messages = WorkflowValidator(catalog: catalog).validate(workflow).map { "\($0.location.line):\($0.location.column) \($0.message)" }
        #expect(
            messages == [
                "2:32 the default of input 'count' needs Int: cannot use String 'three' as Int (write a whole number such as 3)",
                "3:40 the default of input 'names' needs Int: cannot use String 'two' as Int (write a whole number such as 3)"
            ])
    }

    @Test func requiredIsCheckedAtLoadAndAtRun() async throws {
        #expect {
            try load("input:\n  name: { type: text, required: true, default: x }\nsteps: []\n")
        } throws: { error in
            "\(error)".contains("inputs.yaml:2:39: error: input 'name' is required, so its default would never be used")
        }
        #expect {
            try load("input:\n  name: { type: text, required: maybe }\nsteps: []\n")
        } throws: { error in
            "\(error)".contains("expected true or false for 'required'")
        }
        let needed = "input:\n  name: { type: text, required: true }\nsteps: []\noutput: ${input.name}\n"
        await #expect(throws: WorkflowRunError.self) { try await run(needed, inputs: [:]) }
        #expect(try await run(needed, inputs: ["name": .string("Ada")]) == .string("Ada"))
    }

    @Test func everyTypeNameIsKnown() {
        for (name, type) in [
            ("text", IntentValueType.string), ("number", .double), ("Int", .int), ("boolean", .bool), ("date", .date),
            ("list", .list(.any)), ("[Int]", .list(.int)), ("number?", .optional(.double))
        ] {
            #expect(InputTypes.type(named: name, in: catalog) == type, "\(name)")
        }
        #expect(InputTypes.type(named: "[list]", in: catalog) == nil)
    }
}
