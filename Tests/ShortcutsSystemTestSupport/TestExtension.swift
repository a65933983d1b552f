import Foundation
import ShortcutsTestSupport

/// A small extension in Python, written into a temporary folder by the tests, whose intents
/// misbehave on purpose: `Echo`, `Slow` (answers after `seconds`, or stops on `$/cancel`),
/// `Hang` (ignores everything), `Crash` (kills itself with a signal), `Exit` (exits with a
/// status), `Raise` (prints a Python traceback and exits 1), `Garbage` (writes a line that is not JSON), `Stray` (answers a request never asked), `Ask` (asks for a value), `Pid`.
/// Its `Item` entity answers every query and records the requests in `requests.jsonl`.
public enum TestExtension {
    public static let python = "/usr/bin/python3"

    static let script = #"""
        #!/usr/bin/env python3
        import json, os, signal, sys, threading, time, traceback

        folder = os.path.dirname(os.path.abspath(__file__))
        lock = threading.Lock()
        answers = {}
        answered = threading.Condition()
        cancelled = set()

        def send(message):
            with lock:
                sys.stdout.write(json.dumps(message) + "\n")
                sys.stdout.flush()

        def record(message):
            with open(os.path.join(folder, "requests.jsonl"), "a") as file:
                file.write(json.dumps(message) + "\n")

        METADATA = {"formatVersion": 1, "apps": [{"name": "Tester", "locales": ["en"], "shortcuts": [],
          "enums": [{"name": "Tester.Mood", "title": "Mood", "cases": [{"value": "calm", "title": "Calm"}]}],
          "entities": [{"name": "Tester.Item", "title": "Item", "sortOptions": ["size"], "supportsPropertyQuery": True,
            "supportsStringSearch": True, "isEnumerable": False,
            "properties": [{"name": "size", "title": "Size", "type": "Int", "comparators": ["equalTo", "greaterThan"], "isSortable": True},
                           {"name": "added", "title": "Added", "type": "Date", "comparators": ["lessThan"], "isSortable": False}]}],
          "intents": [{"name": "Tester." + name, "title": name, "openAppWhenRun": False, "isDiscoverable": True, "summary": name,
            "parameters": [{"name": "text", "title": "Text", "type": "String?", "isOptional": True, "isRequired": False}],
            "result": {"type": "ReturnsValue<String>", "valueType": value, "providesDialog": True, "showsSnippet": False}}
            for name, value in [("Echo", "String"), ("Slow", "String"), ("Hang", "String"), ("Crash", "String"), ("Exit", "String"),
                                ("Garbage", "String"), ("Raise", "String"), ("Ask", "String"), ("Pid", "Int"), ("Newest", "Item"), ("Feel", "Mood"), ("Stray", "String")]]}]}

        def item(number):
            return {"type": "Item", "id": str(number), "title": "Item %d" % number, "subtitle": None,
                    "properties": {"size": number * 10, "added": "2026-01-0%dT00:00:00Z" % number}}

        def ask(request_id, question):
            send({"jsonrpc": "2.0", "id": "ask-%s" % request_id, "method": "interaction/requestValue",
                  "params": {"requestId": request_id, "name": "text", "question": question, "type": "String"}})
            with answered:
                while "ask-%s" % request_id not in answers:
                    answered.wait()
                return answers.pop("ask-%s" % request_id)

        def perform(message):
            params = message["params"]
            intent, arguments, rid = params["intent"], params["arguments"], message["id"]
            with lock:
                with open(os.path.join(folder, "performing"), "a") as file:
                    file.write(intent + "\n")
            if intent == "Echo":
                return {"value": arguments.get("text"), "dialog": "Echoed %s" % arguments.get("text"), "details": {"pid": os.getpid()}}
            if intent == "Slow":
                deadline = time.time() + float(arguments.get("text") or "0.3")
                while time.time() < deadline:
                    if rid in cancelled:
                        raise Cancelled()
                    time.sleep(0.01)
                return {"value": "slept"}
            if intent == "Hang":
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                time.sleep(3600)
            if intent == "Crash":
                os.kill(os.getpid(), signal.SIGSEGV)
                time.sleep(5)
            if intent == "Exit":
                os._exit(3)
            if intent == "Raise":
                try:
                    raise RuntimeError("the shelf fell over")
                except RuntimeError:
                    traceback.print_exc()
                    sys.stderr.flush()
                    os._exit(1)
            if intent == "Garbage":
                with lock:
                    sys.stdout.write("hello, this is not JSON\n")
                    sys.stdout.flush()
                time.sleep(3600)
            if intent == "Stray":
                send({"jsonrpc": "2.0", "id": 99999, "result": None})
                time.sleep(3600)
            if intent == "Ask":
                answer = ask(rid, "Which text?")
                if "error" in answer:
                    raise Failure("no answer: %s" % answer["error"]["message"])
                return {"value": answer["result"]["value"], "dialog": "Got %s" % answer["result"]["value"]}
            if intent == "Pid":
                return {"value": os.getpid()}
            if intent == "Newest":
                return {"value": item(3)}
            if intent == "Feel":
                return {"value": "calm"}
            raise Failure("no intent %s" % intent)

        class Failure(Exception):
            pass

        class Cancelled(Exception):
            pass

        def handle(message):
            method, rid = message.get("method"), message.get("id")
            try:
                if method == "initialize":
                    result = {"protocolVersion": 1, "metadata": METADATA}
                elif method == "intents/perform":
                    result = perform(message)
                elif method.startswith("entities/"):
                    record(message)
                    result = {"entities": [item(1), item(2)]}
                elif method == "shutdown":
                    send({"jsonrpc": "2.0", "id": rid, "result": None})
                    os._exit(0)
                else:
                    send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found: %s" % method}})
                    return
                send({"jsonrpc": "2.0", "id": rid, "result": result})
            except Cancelled:
                send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32001, "message": "cancelled"}})
            except Failure as failure:
                send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32000, "message": str(failure)}})

        if sys.argv[1:] != ["extension", "serve"]:
            sys.exit("usage: extension serve")
        with open(os.path.join(folder, "pid"), "w") as file:
            file.write(str(os.getpid()))
        print("test extension started", file=sys.stderr, flush=True)
        for line in sys.stdin:
            message = json.loads(line)
            if "method" not in message:
                with answered:
                    answers[message["id"]] = message
                    answered.notify_all()
            elif message["method"] == "$/cancel":
                cancelled.add(message["params"]["id"])
            else:
                threading.Thread(target=handle, args=(message,), daemon=True).start()
        """#

    /// Writes the extension into a fresh folder and returns its path.
    public static func install() throws -> URL {
        let folder = try TemporaryFolder.make(prefix: "extension-test")
        let file = folder.appendingPathComponent("tester.py")
        try ExecutableFile.write(script, to: file)
        return file
    }

    /// The requests its entity queries received.
    public static func recordedRequests(beside executable: URL) throws -> [[String: Any]] {
        let file = executable.deletingLastPathComponent().appendingPathComponent("requests.jsonl")
        let text = try String(contentsOf: file, encoding: .utf8)
        return try text.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }

    /// The id of the extension's latest process (it writes it when it starts).
    public static func pid(beside executable: URL) -> Int32? {
        let file = executable.deletingLastPathComponent().appendingPathComponent("pid")
        return (try? String(contentsOf: file, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The processes (other than this one) whose environment has `SHORTCUTS_HOME=home` or
    /// whose command line names `path`: what a test left running.
    public static func processes(home: URL? = nil, naming path: String? = nil) -> [Int32] {
        let own = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard pid != own, isAlive(pid) else { return false }
            if let home, let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                environment.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == "SHORTCUTS_HOME=\(home.path)" })
            {
                return true
            }
            if let path, let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                String(decoding: command, as: UTF8.self).contains(path)
            {
                return true
            }
            return false
        }
    }

    /// Whether a process with this id is still alive (a zombie counts as gone).
    public static func isAlive(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        let state = status.split(separator: ")").last?.split(separator: " ").first
        return state != "Z"
    }

    /// Waits, woken by the extension's writes beside it, until it has begun to perform `intent`
    /// `count` times in all; returns whether it did.
    public static func waitUntilPerforming(_ intent: String, count: Int = 1, beside executable: URL) async throws -> Bool {
        let folder = executable.deletingLastPathComponent()
        return try await eventually(watching: [.folder(folder)]) {
            let text = (try? String(contentsOf: folder.appendingPathComponent("performing"), encoding: .utf8)) ?? ""
            return text.split(separator: "\n").filter { $0 == intent }.count >= count
        }
    }

    /// Waits, woken by each exit, until no process runs the program at `path`; returns whether
    /// none does.
    public static func waitUntilNoneRuns(_ path: String) async throws -> Bool {
        await ProcessGroupProbe.waitUntilNoneRuns { processes(naming: path) }
    }

    /// Waits, woken by each exit, until no process runs with this `$SHORTCUTS_HOME`; returns
    /// the ones still running when the patience ran out.
    public static func waitUntilNoneRuns(home: URL) async throws -> [Int32] {
        _ = await ProcessGroupProbe.waitUntilNoneRuns { processes(home: home) }
        return processes(home: home)
    }

    /// Waits, woken by the extension's writes beside it, until it has written its process's id
    /// (it does when it starts); the id, or `nil` when the engine ended first.
    public static func waitForPID(beside executable: URL, engine: pid_t) async throws -> Int32? {
        _ = try await eventually(watching: [.folder(executable.deletingLastPathComponent()), .exit(engine)]) {
            pid(beside: executable) != nil || !ProcessGroupProbe.isRunning(engine)
        }
        return pid(beside: executable)
    }

    /// Waits until a process has ended, woken by its exit; returns whether it ended.
    public static func waitUntilEnded(_ pid: Int32) async -> Bool {
        (try? await eventually(watching: [.exit(pid)]) { !isAlive(pid) }) ?? false
    }
}
