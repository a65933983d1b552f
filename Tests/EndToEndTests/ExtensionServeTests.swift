import Foundation
import Testing

/// `shortcuts extension serve` spoken to over pipes, as an engine speaks to an extension.
@Suite(.endToEnd) struct ExtensionServeTests {
    static var initialize: [String: Any] {
        ["protocolVersions": [1], "locale": "en", "engine": ["name": "shortcuts", "version": "test"]]
    }

    /// Starts a session and initializes it.
    static func session(_ shortcuts: ShortcutsBinary) throws -> ExtensionSession {
        let session = try ExtensionSession(shortcuts)
        let answer = try session.call(0, "initialize", initialize)
        #expect(answer["result"] != nil, "initialize failed: \(answer)")
        return session
    }

    static func result(_ message: [String: Any]) throws -> [String: Any] {
        try #require(message["result"] as? [String: Any], "no result in \(message)")
    }

    static func error(_ message: [String: Any]) throws -> [String: Any] {
        try #require(message["error"] as? [String: Any], "no error in \(message)")
    }

    static func perform(_ intent: String, _ arguments: [String: Any], app: String = "Library") -> [String: Any] {
        ["app": app, "intent": intent, "arguments": arguments, "locale": "en"]
    }

    @Test func initializeAnswersWhatTheMetadataCommandPrints() async throws {
        let shortcuts = try ShortcutsBinary()
        for locale in ["en", "ja"] {
            let session = try ExtensionSession(shortcuts)
            let answer = try Self.result(session.call(1, "initialize", ["protocolVersions": [1, 7], "locale": locale]))
            #expect(answer["protocolVersion"] as? Int == 1)
            let printed = try await shortcuts.run(["metadata", "--locale", locale])
            let metadata = try JSONSerialization.jsonObject(with: Data(printed.output.utf8)) as? NSDictionary
            #expect(metadata != nil && (answer["metadata"] as? NSDictionary)?.isEqual(metadata) == true)
            #expect((answer["extension"] as? [String: Any])?["name"] as? String == "shortcuts")
        }
    }

    @Test func noCommonVersionIsRefusedWithTheSupportedOnes() throws {
        let session = try ExtensionSession(try ShortcutsBinary())
        let error = try Self.error(session.call(1, "initialize", ["protocolVersions": [2, 3]]))
        #expect(error["code"] as? Int == -32002)
        #expect((error["data"] as? [String: Any])?["supported"] as? [Int] == [1])
    }

    @Test func performAddsABookAndDescribesTheIntentItOpens() throws {
        let session = try Self.session(try ShortcutsBinary())
        let result = try Self.result(session.call(1, "intents/perform", Self.perform("AddBook", ["title": "Where the Crawdads Sing"])))
        let book = try #require(result["value"] as? [String: Any])
        #expect(book["type"] as? String == "BookEntity")
        #expect(book["title"] as? String == "Where the Crawdads Sing")
        #expect((book["properties"] as? [String: Any])?["datePublished"] as? String == "2018-08-14")
        #expect(result["dialog"] as? String == "Added Where the Crawdads Sing to Library!")
        #expect(result["snippet"] is NSNull)
        let opened = try #require(result["opensIntent"] as? [String: Any])
        #expect(opened["intent"] as? String == "OpenBook")
        let argument = (opened["arguments"] as? [String: Any])?["book"] as? [String: Any]
        #expect(argument?["id"] as? String == book["id"] as? String)
        #expect(result["details"] is [String: Any])

        // The book comes back as an argument, given as the entity object the engine received.
        let read = try Self.result(session.call(2, "intents/perform", Self.perform("MarkAsRead", ["book": book, "date": "2024-05-01"])))
        let properties = (read["value"] as? [String: Any])?["properties"] as? [String: Any]
        #expect(properties?["shelf"] as? String == "read")
        #expect(properties?["dateRead"] as? String == "2024-05-01")

        // Enum cases by title or by raw value; entities by identifier as text.
        var added: [String: Any] = [:]
        for (id, title, shelf, expected) in [(3, "Emma", "Currently Reading", "currentlyReading"), (4, "Sula", "read", "read")] {
            let result = try Self.result(session.call(id, "intents/perform", Self.perform("AddBook", ["title": title, "shelf": shelf])))
            added = try #require(result["value"] as? [String: Any])
            #expect((added["properties"] as? [String: Any])?["shelf"] as? String == expected)
        }
        try session.send(["id": 5, "method": "intents/perform", "params": Self.perform("BuyBook", ["book": added["id"] ?? "", "count": 2])])
        let request = try session.request("interaction/requestConfirmation")
        let confirmation = try #require(request["params"] as? [String: Any])
        #expect(confirmation["name"] as? String == "confirm")
        #expect(confirmation["question"] as? String == "Are you ready to order?")
        #expect((confirmation["preview"] as? String)?.contains("Sula") == true)
        try session.answer(request, result: ["confirmed": true])
        let bought = try Self.result(session.response(to: 5))
        #expect(bought["dialog"] as? String == "Thank you for your order!")
        #expect((bought["snippet"] as? String)?.isEmpty == false)
    }

    @Test func aQuestionGoesToTheEngineWithTheRequestItBelongsTo() throws {
        let session = try Self.session(try ShortcutsBinary())
        try session.send(["id": 5, "method": "intents/perform", "params": Self.perform("AddBook", ["title": "Paradise"])])
        let question = try session.request("interaction/requestValue")
        let params = try #require(question["params"] as? [String: Any])
        #expect(params["requestId"] as? Int == 5)
        #expect(params["name"] as? String == "authorName")
        #expect(params["question"] as? String == "Who wrote the book?")
        #expect(params["type"] as? String == "String?")
        try session.answer(question, result: ["value": "Toni Morrison"])
        let result = try Self.result(session.response(to: 5))
        let properties = (result["value"] as? [String: Any])?["properties"] as? [String: Any]
        #expect(properties?["author"] as? String == "Toni Morrison")
    }

    @Test func aQuestionTheEngineCannotAskFailsThePerformWithTheQuestion() throws {
        let session = try Self.session(try ShortcutsBinary())
        try session.send(["id": 5, "method": "intents/perform", "params": Self.perform("AddBook", ["title": "Paradise"])])
        let question = try session.request("interaction/requestValue")
        try session.answer(
            question, errorCode: -32003, message: "cannot ask", data: ["question": "Who wrote the book?", "name": "authorName"])
        let error = try Self.error(session.response(to: 5))
        #expect(error["code"] as? Int == -32000)
        #expect((error["message"] as? String)?.contains("\"Who wrote the book?\"") == true)
        let data = error["data"] as? [String: Any]
        #expect(data?["kind"] as? String == "cannotAsk")
        #expect(data?["name"] as? String == "authorName")
        #expect(data?["question"] as? String == "Who wrote the book?")
    }

    @Test func confirmationsAndChoicesGoToTheEngine() throws {
        let session = try Self.session(try ShortcutsBinary())
        // "Crawdads" matches one title only in part, so AddBook asks to confirm it.
        try session.send(["id": 3, "method": "intents/perform", "params": Self.perform("AddBook", ["title": "Crawdads"])])
        let confirmation = try session.request("interaction/requestConfirmation")
        let params = try #require(confirmation["params"] as? [String: Any])
        #expect(params["requestId"] as? Int == 3)
        #expect(params["question"] as? String == "Did you mean Where the Crawdads Sing by Delia Owens?")
        try session.answer(confirmation, result: ["confirmed": false])
        let declined = try Self.error(session.response(to: 3))
        #expect((declined["message"] as? String)?.contains("No book called Crawdads") == true)

        for (index, title) in ["Sula", "Beloved"].enumerated() {
            _ = try Self.result(session.call(4 + index, "intents/perform", Self.perform("AddBook", ["title": title])))
        }
        // Text that matches both books is resolved by asking which one.
        try session.send(["id": 6, "method": "intents/perform", "params": Self.perform("MarkAsRead", ["book": "Morrison"])])
        let choice = try session.request("interaction/requestDisambiguation")
        let options = try #require((choice["params"] as? [String: Any])?["options"] as? [String])
        #expect(options == ["Beloved (Toni Morrison)", "Sula (Toni Morrison)"])
        try session.answer(choice, result: ["index": 1])
        #expect((try Self.result(session.response(to: 6))["value"] as? [String: Any])?["title"] as? String == "Sula")
    }

    @Test func entityQueriesRunThroughTheAppsQueries() throws {
        let session = try Self.session(try ShortcutsBinary())
        var ids: [String: String] = [:]
        for (index, title) in ["Sula", "Beloved", "Jazz", "Emma"].enumerated() {
            let result = try Self.result(session.call(10 + index, "intents/perform", Self.perform("AddBook", ["title": title])))
            ids[title] = (result["value"] as? [String: Any])?["id"] as? String
        }
        func titles(_ answer: [String: Any]) throws -> [String] {
            let entities = try #require(try Self.result(answer)["entities"] as? [[String: Any]])
            return entities.compactMap { $0["title"] as? String }
        }
        let query: [String: Any] = [
            "app": "Library", "entity": "BookEntity", "locale": "en", "mode": "and",
            "conditions": [
                ["property": "author", "comparator": "equalTo", "operands": ["Toni Morrison"]],
                ["property": "datePublished", "comparator": "greaterThan", "operands": ["1980-01-01"]]
            ],
            "sort": [["property": "datePublished", "order": "descending"]]
        ]
        #expect(try titles(session.call(20, "entities/query", query)) == ["Jazz", "Beloved"])
        #expect(try titles(session.call(21, "entities/query", query.merging(["limit": 1]) { $1 })) == ["Jazz"])
        let either = query.merging(["mode": "or", "sort": [["property": "title"]]]) { $1 }
        #expect(try titles(session.call(22, "entities/query", either)) == ["Beloved", "Jazz", "Sula"])

        let entity: [String: Any] = ["app": "Library", "entity": "Library.BookEntity"]
        #expect(try titles(session.call(23, "entities/matching", entity.merging(["query": "belov"]) { $1 })) == ["Beloved"])
        let byIdentifiers = entity.merging(["identifiers": [ids["Emma"] ?? "", ids["Sula"] ?? "", UUID().uuidString]]) { $1 }
        #expect(Set(try titles(session.call(24, "entities/byIdentifiers", byIdentifiers))) == ["Emma", "Sula"])
        #expect(Set(try titles(session.call(25, "entities/suggested", entity))) == ["Sula", "Beloved", "Jazz", "Emma"])

        let unsupported = query.merging(["conditions": [["property": "dateRead", "comparator": "equalTo", "operands": ["2020-01-01"]]]]) { $1 }
        let error = try Self.error(session.call(26, "entities/query", unsupported))
        #expect(error["code"] as? Int == -32602)
        #expect((error["data"] as? [String: Any])?["field"] as? String == "conditions[0].comparator")
    }

    @Test func overlappingPerformsAreAnsweredByTheirIds() throws {
        let session = try Self.session(try ShortcutsBinary())
        try session.send(["id": 1, "method": "intents/perform", "params": Self.perform("AddBook", ["title": "Paradise"])])
        try session.send(["id": 2, "method": "intents/perform", "params": Self.perform("AddBook", ["title": "Love"])])
        let first = try session.request("interaction/requestValue")
        let second = try session.request("interaction/requestValue")
        let questions = [first, second].map { (($0["params"] as? [String: Any])?["requestId"] as? Int ?? 0, $0) }
        let byRequest = Dictionary(questions, uniquingKeysWith: { one, _ in one })
        #expect(Set(byRequest.keys) == [1, 2])
        // Answered in the reverse order: each perform gets its own answer.
        try session.answer(try #require(byRequest[2]), result: ["value": "Angela Carter"])
        let love = try Self.result(session.response(to: 2))
        try session.answer(try #require(byRequest[1]), result: ["value": "Toni Morrison"])
        let paradise = try Self.result(session.response(to: 1))
        #expect(((love["value"] as? [String: Any])?["properties"] as? [String: Any])?["author"] as? String == "Angela Carter")
        #expect(((paradise["value"] as? [String: Any])?["properties"] as? [String: Any])?["author"] as? String == "Toni Morrison")
    }

    @Test func cancelStopsASlowPerform() throws {
        let session = try Self.session(try ShortcutsBinary())
        let folder = try TemporaryFolder.make(prefix: "cancel")
        defer { try? FileManager.default.removeItem(at: folder) }
        let mark = folder.appendingPathComponent("started")
        try session.send([
            "id": 9, "method": "intents/perform",
            "params": Self.perform("RunCommand", ["executable": "sh", "arguments": ["-c", "touch '\(mark.path)'; exec sleep 3600"]], app: "Shell")
        ])
        let began = try eventuallyBlocking(watching: [.folder(folder)]) { FileManager.default.fileExists(atPath: mark.path) }
        #expect(began && !session.children.isEmpty, "the command never started")
        try session.send(["method": "$/cancel", "params": ["id": 9]])
        // Cancelled, not finished: an hour's sleep answers only when it is ended.
        let error = try Self.error(session.response(to: 9))
        #expect(error["code"] as? Int == -32001)
        #expect(session.children.isEmpty)
        // The extension goes on serving.
        #expect(try Self.result(session.call(10, "entities/suggested", ["app": "Library", "entity": "BookEntity"]))["entities"] != nil)
    }

    @Test func cancelEndsAPerformWaitingForAnAnswer() throws {
        let session = try Self.session(try ShortcutsBinary())
        try session.send(["id": 4, "method": "intents/perform", "params": Self.perform("AddBook", ["title": "Paradise"])])
        let question = try session.request("interaction/requestValue")
        try session.send(["method": "$/cancel", "params": ["id": 4]])
        #expect(try Self.error(session.response(to: 4))["code"] as? Int == -32001)
        // The answer that comes too late is ignored, and said so in the log.
        try session.answer(question, result: ["value": "Toni Morrison"])
        let log = try #require(try session.request("log")["params"] as? [String: Any])
        #expect(log["level"] as? String == "warning")
        let books = try Self.result(session.call(5, "entities/suggested", ["app": "Library", "entity": "BookEntity"]))["entities"] as? [Any]
        #expect(books?.isEmpty == true)
    }

    @Test func protocolMistakesAreAnsweredWithTheirCodes() throws {
        let session = try Self.session(try ShortcutsBinary())
        try session.sendLine("{not json")
        #expect(try Self.error(session.answerWithoutID())["code"] as? Int == -32700)
        try session.sendLine(#"{"jsonrpc":"2.0","id":2,"params":{}}"#)
        #expect(try Self.error(session.response(to: 2))["code"] as? Int == -32600)
        let unknown = try Self.error(session.call(3, "intents/undo", [:]))
        #expect(unknown["code"] as? Int == -32601)
        #expect((unknown["message"] as? String)?.contains("intents/undo") == true)
        let missing = try Self.error(session.call(4, "intents/perform", ["app": "Library"]))
        #expect(missing["code"] as? Int == -32602)
        #expect((missing["data"] as? [String: Any])?["field"] as? String == "intent")
        let misspelled = try Self.error(session.call(5, "intents/perform", Self.perform("AddBok", [:])))
        #expect((misspelled["message"] as? String)?.contains("did you mean 'AddBook'?") == true)
        let badValue = try Self.error(session.call(6, "intents/perform", Self.perform("BuyBook", ["book": ["type": "BookEntity"]])))
        #expect((badValue["data"] as? [String: Any])?["field"] as? String == "arguments.book")
        // After all that, the extension still answers.
        #expect(try Self.result(session.call(7, "entities/suggested", ["app": "Library", "entity": "BookEntity"]))["entities"] != nil)
    }

    @Test func whatIntentsPrintNeverReachesTheProtocol() throws {
        let session = try Self.session(try ShortcutsBinary())
        // The script writes to its own output (captured as the result) and to the extension's.
        let script = "echo captured; echo stray-line > /proc/$PPID/fd/1"
        let result = try Self.result(session.call(1, "intents/perform", Self.perform("RunScript", ["script": script], app: "Shell")))
        #expect(result["value"] as? String == "captured")
        #expect(try Self.result(session.call(2, "entities/suggested", ["app": "Library", "entity": "BookEntity"]))["entities"] != nil)
        for line in session.lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not a message: \(line)")
        }
        #expect(session.standardError.contains("stray-line"))
    }

    @Test func shutdownAnswersNullAndExits() throws {
        let session = try Self.session(try ShortcutsBinary())
        let answer = try session.call(1, "shutdown", [:])
        #expect(answer["result"] is NSNull)
        #expect(try session.waitForExit() == 0)
    }

    @Test func shutdownWaitsForRequestsInFlight() throws {
        let session = try Self.session(try ShortcutsBinary())
        try session.send(["id": 1, "method": "intents/perform", "params": Self.perform("AddBook", ["title": "Paradise"])])
        let question = try session.request("interaction/requestValue")
        #expect(try session.call(2, "shutdown", [:])["result"] is NSNull)
        #expect(try Self.error(session.call(3, "entities/suggested", ["app": "Library", "entity": "BookEntity"]))["code"] as? Int == -32600)
        try session.answer(question, result: ["value": "Toni Morrison"])
        #expect(try Self.result(session.response(to: 1))["value"] != nil)
        #expect(try session.waitForExit() == 0)
    }

    @Test func theEndOfInputEndsTheExtension() throws {
        let session = try Self.session(try ShortcutsBinary())
        try session.closeInput()
        #expect(try session.waitForExit() == 0)
    }

    /// The schema file of a method's params or result.
    static func schema(_ method: String, _ part: String) -> String {
        let name = method == "$/cancel" ? "cancel" : method.replacingOccurrences(of: "/", with: "-")
        return "extension-protocol/\(name).\(part).schema.json"
    }

    @Test func everyMessageFollowsTheProtocolsSchemas() throws {
        let session = try ExtensionSession(try ShortcutsBinary())
        var methods: [Int: String] = [:]
        var sent: [[String: Any]] = []
        func send(_ id: Int, _ method: String, _ params: [String: Any]) throws {
            methods[id] = method
            sent.append(["jsonrpc": "2.0", "id": id, "method": method, "params": params])
            try session.send(["id": id, "method": method, "params": params])
        }
        try send(1, "initialize", Self.initialize)
        _ = try session.response(to: 1)
        try send(2, "intents/perform", Self.perform("AddBook", ["title": "Where the Crawdads Sing"]))
        let added = try Self.result(session.response(to: 2))
        try send(3, "intents/perform", Self.perform("AddBook", ["title": "Paradise"]))
        let value = try session.request("interaction/requestValue")
        try session.answer(value, result: ["value": "Toni Morrison"])
        _ = try session.response(to: 3)
        try send(4, "intents/perform", Self.perform("AddBook", ["title": "Love"]))
        try session.answer(
            try session.request("interaction/requestValue"), errorCode: -32003, message: "cannot ask",
            data: ["question": "Who wrote the book?", "name": "authorName"])
        _ = try session.response(to: 4)
        try send(5, "intents/perform", Self.perform("AddBook", ["title": "Crawdads"]))
        try session.answer(try session.request("interaction/requestConfirmation"), result: ["confirmed": true])
        _ = try session.response(to: 5)
        let id = (added["value"] as? [String: Any])?["id"] as? String ?? ""
        try send(6, "entities/byIdentifiers", ["app": "Library", "entity": "BookEntity", "identifiers": [id], "locale": "en"])
        try send(7, "entities/matching", ["app": "Library", "entity": "BookEntity", "query": "para"])
        try send(8, "entities/suggested", ["app": "Library", "entity": "BookEntity"])
        try send(
            9, "entities/query",
            [
                "app": "Library", "entity": "BookEntity", "mode": "or", "limit": 2, "sort": [["property": "title", "order": "ascending"]],
                "conditions": [["property": "datePublished", "comparator": "isBetween", "operands": ["1990-01-01", "2020-01-01"]]]
            ])
        try send(10, "entities/query", ["app": "Library", "entity": "BookEntity", "sort": [["property": "shelf"]]])
        try send(11, "intents/undo", [:])
        try session.sendLine("[1, 2]")
        try session.send(["id": 99, "result": ["value": "nobody asked"]])
        _ = try session.request("log")
        for id in 6...11 { _ = try session.response(to: id) }
        try send(12, "shutdown", [:])
        _ = try session.response(to: 12)
        #expect(try session.waitForExit() == 0)

        for message in sent {
            let method = message["method"] as? String ?? ""
            #expect(MessageSchemas.problems(in: message, against: "extension-protocol/message.schema.json") == [])
            if method != "intents/undo" {
                #expect(MessageSchemas.problems(in: message["params"] ?? [:], against: Self.schema(method, "params")) == [], "\(method)")
            }
        }
        var checked: Set<String> = []
        for line in session.lines {
            let message = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(MessageSchemas.problems(in: message, against: "extension-protocol/message.schema.json") == [], "\(line)")
            var schema: String?
            if let method = message["method"] as? String {
                schema = Self.schema(method, "params")
                checked.insert(method)
            } else if let result = message["result"] {
                let method = try #require(methods[message["id"] as? Int ?? -1])
                #expect(MessageSchemas.problems(in: result, against: Self.schema(method, "result")) == [], "\(line)")
                checked.insert(method + " result")
            } else {
                schema = "extension-protocol/error.schema.json"
                checked.insert("error \((message["error"] as? [String: Any])?["code"] ?? "")")
            }
            if let schema {
                let part = message["params"] ?? message["error"] ?? [:]
                #expect(MessageSchemas.problems(in: part, against: schema) == [], "\(line)")
            }
        }
        #expect(
            checked.isSuperset(of: [
                "initialize result", "intents/perform result", "entities/query result", "entities/matching result", "shutdown result",
                "interaction/requestValue", "interaction/requestConfirmation", "log", "error -32000", "error -32601", "error -32600"
            ]), "\(checked)")
    }

    @Test func theSchemasRejectWhatIsNotAMessage() {
        #expect(!MessageSchemas.problems(in: ["entities": [["id": "1"]]], against: Self.schema("entities/query", "result")).isEmpty)
        #expect(!MessageSchemas.problems(in: ["code": -32000], against: "extension-protocol/error.schema.json").isEmpty)
        #expect(!MessageSchemas.problems(in: ["protocolVersion": 1, "metadata": ["apps": []]], against: Self.schema("initialize", "result")).isEmpty)
        #expect(MessageSchemas.problems(in: ["requestId": 2, "completed": 3, "total": NSNull()], against: Self.schema("progress", "params")) == [])
    }

    @Test func serveHasHelp() async throws {
        let result = try await ShortcutsBinary().run(["extension", "serve", "--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("Serve the extension protocol on standard input and output."))
        #expect(result.output.contains("Schemas/extension-protocol.md"))
    }
}
