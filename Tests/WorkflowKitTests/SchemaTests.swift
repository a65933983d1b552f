import Foundation
import Testing

@testable import WorkflowKit

/// `Schemas/workflow.schema.json` is a valid JSON Schema 2020-12 with a description on every
/// property, accepts every valid fixture, and rejects typical mistakes. Checked with Python's
/// `jsonschema`; the test fails (it does not skip) when python3 or jsonschema is missing.
@Suite("Workflow JSON Schema")
struct SchemaTests {
    static let schemaURL = Fixtures.packageRoot.appendingPathComponent("Schemas/workflow.schema.json")

    static let checker = """
        import json, sys
        try:
            import jsonschema
        except ImportError:
            print("the Python package 'jsonschema' is not installed (pip install jsonschema)", file=sys.stderr)
            sys.exit(3)
        with open(sys.argv[1]) as file:
            schema = json.load(file)
        if jsonschema.validators.validator_for(schema) is not jsonschema.Draft202012Validator:
            print("the schema does not declare JSON Schema 2020-12", file=sys.stderr)
            sys.exit(4)
        jsonschema.Draft202012Validator.check_schema(schema)
        undescribed = []
        def walk(node, path):
            if isinstance(node, dict):
                for name, subschema in node.get("properties", {}).items():
                    if not isinstance(subschema, dict) or "description" not in subschema:
                        undescribed.append(path + "/properties/" + name)
                for key, value in node.items():
                    walk(value, path + "/" + key)
            elif isinstance(node, list):
                for index, value in enumerate(node):
                    walk(value, path + "/" + str(index))
        walk(schema, "#")
        validator = jsonschema.Draft202012Validator(schema)
        results = {}
        for path in sys.argv[2:]:
            with open(path) as file:
                instance = json.load(file)
            results[path] = sorted("/".join(map(str, error.absolute_path)) + ": " + error.message
                                   for error in validator.iter_errors(instance))
        print(json.dumps({"undescribed": undescribed, "results": results}))
        """

    /// Mistakes the loader rejects and the schema must reject too.
    static let invalidSamples: [String: String] = [
        "two-kinds": "steps:\n  - perform: A.B\n    find: A.C\n",
        "unknown-top-level-key": "stpes: []\nsteps: []\n",
        "setting-of-another-kind": "steps:\n  - find: A.B\n    openWhenRun: true\n",
        "negative-limit": "steps:\n  - find: A.B\n    limit: -1\n",
        "unknown-overlap": "automation:\n  schedule: x\n  overlap: sometimes\nsteps: []\n",
        "isBetween-one-value": "steps:\n  - find: A.B\n    where: { n: { isBetween: [1] } }\n",
        "missing-steps": "name: x\n",
        "comparator-without-value": "steps:\n  - if: { greaterThan: 1 }\n    then: []\n",
        "value-without-comparator": "steps:\n  - if: { value: 1 }\n    then: []\n",
        "wait-without-unit": "steps:\n  - wait: 5\n",
        "reserved-variable": "steps:\n  - set: input\n    to: 1\n",
        "unknown-comparator": "steps:\n  - find: A.B\n    where: { n: { equalTp: 1 } }\n",
        "repeat-both-modes": "steps:\n  - repeat: { count: 1, each: [1] }\n    steps: []\n",
        "missing-then": "steps:\n  - if: { value: 1, equalTo: 1 }\n",
        "no-kind": "steps:\n  - id: lonely\n",
        "while-and-until": "steps:\n  - repeat: { while: { value: 1, equalTo: 1 }, until: { value: 1, equalTo: 2 } }\n    steps: []\n",
        "zero-max-iterations": "steps:\n  - repeat: { while: { value: 1, equalTo: 1 }, maxIterations: 0 }\n    steps: []\n",
        "count-with-max-iterations": "steps:\n  - repeat: { count: 2, maxIterations: 5 }\n    steps: []\n",
        "break-with-value": "steps:\n  - repeat: { count: 2 }\n    steps: [ { break: now } ]\n",
        "try-alone": "steps:\n  - try: [ { show: a } ]\n",
        "catch-without-try": "steps:\n  - catch: [ { show: a } ]\n",
        "empty-on-failure": "steps: []\nonFailure: []\n",
        "comment-continuing": "steps:\n  - comment: hi\n    continueOnError: true\n",
        "automation-without-trigger": "automation:\n  timeout: 1m\nsteps: []\n",
        "webhook-name-with-capitals": "automation:\n  webhook: Deploy\nsteps: []\n",
        "webhook-rate-per-day": "automation:\n  webhook: { name: deploy, rate: 10/d }\nsteps: []\n",
        "watch-without-path": "automation:\n  watch: { events: [created] }\nsteps: []\n",
        "watch-unknown-event": "automation:\n  watch: { path: inbox, events: [renamed] }\nsteps: []\n",
        "watch-pattern-with-folder": "automation:\n  watch: { path: inbox, pattern: 'a/*.pdf' }\nsteps: []\n"
    ]

    @Test func theBundledSchemaIsTheSchemasFile() throws {
        let bundled = Fixtures.packageRoot.appendingPathComponent("Sources/WorkflowKit/Resources/workflow.schema.json")
        #expect(
            try Data(contentsOf: bundled) == Data(contentsOf: Self.schemaURL),
            "copy Schemas/workflow.schema.json to Sources/WorkflowKit/Resources/ after changing it")
    }

    struct Report: Decodable {
        let undescribed: [String]
        let results: [String: [String]]
    }

    @Test func schemaIsValidAndMatchesTheLoader() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("workflow-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var validPaths: [String] = []
        for name in Fixtures.validNames {
            let text = try Fixtures.text(name)
            _ = try WorkflowLoader.load(text: text, fileName: name)
            let path = directory.appendingPathComponent("valid-\(name).json").path
            try YAMLDocumentJSON.jsonData(fromYAML: text).write(to: URL(fileURLWithPath: path))
            validPaths.append(path)
        }
        // Every workflow shipped in Workflows/ matches the schema too.
        let workflowsFolder = Fixtures.packageRoot.appendingPathComponent("Workflows")
        let shipped = try FileManager.default.contentsOfDirectory(atPath: workflowsFolder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(shipped.count >= 8)
        for name in shipped {
            let text = try String(contentsOf: workflowsFolder.appendingPathComponent(name), encoding: .utf8)
            _ = try WorkflowLoader.load(text: text, fileName: name)
            let path = directory.appendingPathComponent("workflow-\(name).json").path
            try YAMLDocumentJSON.jsonData(fromYAML: text).write(to: URL(fileURLWithPath: path))
            validPaths.append(path)
        }
        var invalidPaths: [String: String] = [:]
        for (name, text) in Self.invalidSamples {
            #expect(throws: DiagnosticError.self, "the loader should reject \(name)") {
                try WorkflowLoader.load(text: text, fileName: name)
            }
            let path = directory.appendingPathComponent("invalid-\(name).json").path
            try YAMLDocumentJSON.jsonData(fromYAML: text).write(to: URL(fileURLWithPath: path))
            invalidPaths[path] = name
        }
        let script = directory.appendingPathComponent("check_schema.py")
        try Self.checker.write(to: script, atomically: true, encoding: .utf8)

        let output = try runPython(arguments: [script.path, Self.schemaURL.path] + validPaths + invalidPaths.keys.sorted())
        let report = try JSONDecoder().decode(Report.self, from: Data(output.utf8))
        #expect(report.undescribed == [], "every property needs a description")
        for path in validPaths {
            #expect(report.results[path] == [], "\(path) should validate")
        }
        for (path, name) in invalidPaths {
            #expect(report.results[path]?.isEmpty == false, "the schema should reject \(name)")
        }
    }

    /// Runs `python3` and returns its standard output; records a failure explaining what is missing otherwise.
    private func runPython(arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            Issue.record("cannot start python3 through /usr/bin/env: \(error)")
            throw error
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorText = String(decoding: errorData, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            let reason =
                process.terminationStatus == 127
                ? "python3 is not installed or not on PATH"
                : "the schema check failed with status \(process.terminationStatus)"
            Issue.record("\(reason): \(errorText)")
            throw YAMLDocumentJSON.ConversionError(description: reason)
        }
        return String(decoding: outputData, as: UTF8.self)
    }
}
