import Foundation
import IntentExtensions
import IntentKit

/// Measures what performing an intent through an extension adds to performing the same intent
/// in process: a trivial `Greet` (text in, text and dialog out) performed by the
/// ``IntentPerformer`` in process, and through ``ExtensionHost`` in an extension process, one
/// call at a time; and the first call's start-up (spawn, `initialize`, the call).
///
/// The extensions: a small Python one written into a temporary folder (standard library,
/// one thread), and the `greeter-example` built beside this benchmark when it answers the
/// protocol (`greeter-example extension serve`).
enum ExtensionBenchmark {
    static func run(arguments: [String]) async throws {
        let calls = arguments.first.flatMap(Int.init) ?? 5_000
        let performer = IntentPerformer(catalog: IntentCatalog(apps: [IntentApp(name: "Greeter", intents: [Greet.self])]))
        let inProcess = try await measure(calls: calls) {
            _ = try await performer.perform("Greeter.Greet", arguments: ["name": .string("Ada")])
        }
        print("Greeter.Greet, \(calls) calls one after the other (median per call)")
        print(String(format: "    in process (IntentPerformer): %.1f µs", inProcess * 1e6))
        var extensions: [(String, String)] = []
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("extension-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") {
            let script = folder.appendingPathComponent("greeter.py")
            try pythonGreeter.write(to: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
            extensions.append(("Python extension (greeter.py)", script.path))
        }
        let swiftGreeter = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("greeter-example").path
        if FileManager.default.isExecutableFile(atPath: swiftGreeter) {
            extensions.append(("Swift extension (greeter-example)", swiftGreeter))
        }
        for (title, executable) in extensions {
            let handshake: ExtensionHandshake
            do {
                handshake = try await ExtensionHandshake.perform(name: "Greeter", executable: executable)
            } catch {
                print("    \(title): not measured: \(error)")
                continue
            }
            let request = HostedIntentRequest(
                app: "Greeter", intent: "Greet", arguments: ["name": .string("Ada")], locale: "en", interaction: NoInteraction())
            let host = ExtensionHost(name: "Greeter", executable: executable, metadata: handshake.metadata)
            let roundTrip = try await measure(calls: calls) { _ = try await host.perform(request) }
            await host.stop()
            var starts: [Double] = []
            for _ in 0..<10 {
                let fresh = ExtensionHost(name: "Greeter", executable: executable, metadata: handshake.metadata)
                let clock = ContinuousClock()
                let elapsed = try await clock.measure { _ = try await fresh.perform(request) }
                starts.append(WorkflowBenchmark.seconds(elapsed))
                await fresh.stop()
            }
            starts.sort()
            print(
                String(
                    format: "    %@: %.1f µs, %.1f µs added per call (goal ≤ 100 µs); ratio %.1f×", title, roundTrip * 1e6,
                    (roundTrip - inProcess) * 1e6, roundTrip / inProcess))
            print(
                String(
                    format: "        first call (spawn, initialize, the call): median %.1f ms of 10, min %.1f ms, max %.1f ms", starts[5] * 1e3,
                    starts[0] * 1e3, starts[9] * 1e3))
        }
    }

    /// The median time of one call, over `calls` calls after 200 to warm up.
    private static func measure(calls: Int, _ body: () async throws -> Void) async throws -> Double {
        for _ in 0..<200 { try await body() }
        let clock = ContinuousClock()
        var times: [Double] = []
        times.reserveCapacity(calls)
        for _ in 0..<calls {
            times.append(WorkflowBenchmark.seconds(try await clock.measure { try await body() }))
        }
        times.sort()
        return times[times.count / 2]
    }

    private static let pythonGreeter = #"""
        #!/usr/bin/env python3
        import json, sys
        METADATA = {"formatVersion": 1, "apps": [{"name": "Greeter", "locales": ["en"], "entities": [], "enums": [], "shortcuts": [],
            "intents": [{"name": "Greeter.Greet", "title": "Greet", "openAppWhenRun": False, "isDiscoverable": True, "summary": "Greet ${name}",
                "parameters": [{"name": "name", "title": "Name", "type": "String", "isOptional": False, "isRequired": True}],
                "result": {"type": "ReturnsValue<String> & ProvidesDialog", "valueType": "String", "providesDialog": True, "showsSnippet": False}}]}]}
        for line in sys.stdin:
            message = json.loads(line)
            method = message.get("method")
            if "id" not in message:
                continue
            if method == "initialize":
                result = {"protocolVersion": 1, "metadata": METADATA}
            elif method == "intents/perform":
                greeting = "Hi %s!" % message["params"]["arguments"]["name"]
                result = {"value": greeting, "dialog": greeting}
            elif method == "shutdown":
                sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": None}) + "\n")
                sys.stdout.flush()
                break
            else:
                result = None
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
            sys.stdout.flush()
        """#
}

extension ExtensionBenchmark {
    /// Greeter's `Greet`, performed in process as the baseline.
    struct Greet: AppIntent {
        static let title: LocalizedStringResource = "Greet"

        @Parameter(title: "Name")
        var name: String

        func perform() async throws -> some IntentResult & ReturnsValue<String> & ProvidesDialog {
            let greeting = "Hi \(name)!"
            return .result(value: greeting, dialog: "\(greeting)")
        }
    }
}
