import Foundation
import Testing

/// The answers `shortcuts mcp` gives to what is not a request its handlers can read: JSON-RPC
/// 2.0's codes, with the request's id or `null`, never one made up.
@Suite(.timeLimit(.minutes(5)))
struct MCPServerErrorTests {
    /// The code and id of each answer, in order.
    private func errors(answering lines: [String]) async throws -> [(code: Int?, id: AnswerOracle.AnswerID?, isNull: Bool)] {
        let session = try MCPSession()
        for line in lines { try await session.send(line) }
        var errors: [(code: Int?, id: AnswerOracle.AnswerID?, isNull: Bool)] = []
        for _ in lines {
            let answer = try #require(try await session.answer())
            errors.append(((answer["error"] as? [String: Any])?["code"] as? Int, AnswerOracle.AnswerID(answer["id"]), answer["id"] is NSNull))
        }
        try await session.end()
        return errors
    }

    @Test func textThatIsNotJSONIsAParseErrorWithANullID() async throws {
        let lines = [#"{"jsonrpc":"2.0","id":1,"method":"ping""#, #"{"jsonrpc":"2.0","id":2,"method":"ping",}"#, "[1,]", "01", "\u{FEFF}{}"]
        for error in try await errors(answering: lines) {
            #expect(error.code == -32700)
            #expect(error.isNull)
        }
    }

    @Test func nestingDeeperThan256LevelsIsAParseErrorAndShallowerIsRead() async throws {
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        let session = try MCPSession()
        try await session.send(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"deep":\#(nested(254))}}"#)
        #expect(try await session.answer()?["result"] != nil)
        try await session.send(#"{"jsonrpc":"2.0","id":2,"method":"ping","params":{"deep":\#(nested(255))}}"#)
        let error = try #require(try await session.answer()?["error"] as? [String: Any])
        #expect(error["code"] as? Int == -32700)
        try await session.send(nested(100_000))
        #expect((try await session.answer()?["error"] as? [String: Any])?["code"] as? Int == -32700)
        try await session.end()
    }

    @Test func aRequestOfTheWrongShapeIsAnInvalidRequestWithItsIDWhenItHasAReadableOne() async throws {
        let answers = try await errors(answering: [
            #"{"jsonrpc":"1.0","id":7,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":"eight","method":3}"#,
            #"{"jsonrpc":"2.0","id":9,"method":"ping","result":{}}"#,
            #"{"jsonrpc":"2.0","id":10,"method":"ping","params":"yes"}"#,
            #"{"jsonrpc":"2.0","id":11}"#,
            #"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":1e400,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":99999999999999999999,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":12,"method":"\ud800"}"#,
            #"{"jsonrpc":"2.0","method":1,"params":"bar"}"#,
            "42"
        ])
        let ids: [AnswerOracle.AnswerID?] = [
            .integer(7), .string("eight"), .integer(9), .integer(10), .integer(11), nil, nil, nil, nil, nil, .integer(12), nil, nil
        ]
        #expect(answers.map(\.code) == Array(repeating: -32600, count: ids.count))
        #expect(answers.map(\.id) == ids)
        #expect(answers.map(\.isNull) == ids.map { $0 == nil })
    }

    @Test func aBatchIsAnInvalidRequestAnsweredOnceWithANullID() async throws {
        let answers = try await errors(answering: [#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#, "[]"])
        #expect(answers.map(\.code) == [-32600, -32600])
        #expect(answers.allSatisfy { $0.isNull })
    }

    @Test func anUnknownMethodIsMethodNotFoundAndBadParametersAreInvalidParamsWithTheRequestsID() async throws {
        let answers = try await errors(answering: [
            #"{"jsonrpc":"2.0","id":"a","method":"tools/lst"}"#,
            #"{"jsonrpc":"2.0","id":21,"method":"resources/list"}"#,
            #"{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"arguments":{}}}"#,
            #"{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"Echo_Say","arguments":[1]}}"#,
            #"{"jsonrpc":"2.0","id":23,"method":"tools/call"}"#,
            #"{"jsonrpc":"2.0","id":24,"method":"initialize","params":{"capabilities":"all"}}"#,
            #"{"jsonrpc":"2.0","id":25,"method":"tools/call","params":{"name":"Nothing_Here"}}"#
        ])
        #expect(answers.map(\.code) == [-32601, -32601, -32602, -32602, -32602, -32602, -32602])
        #expect(answers.map(\.id) == [.string("a"), .integer(21), .string("b"), .integer(22), .integer(23), .integer(24), .integer(25)])
    }

    @Test func notificationsAndResponsesAreNotAnswered() async throws {
        let session = try MCPSession()
        try await session.initialize()
        for line in [
            #"{"jsonrpc":"2.0","method":"notifications/unknown"}"#,
            #"{"jsonrpc":"2.0","method":"tools/list"}"#,
            #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":123}}"#,
            #"{"jsonrpc":"2.0","id":"never-asked","result":{}}"#,
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
            "", "   \r"
        ] {
            try await session.send(line)
        }
        try await session.send(#"{"jsonrpc":"2.0","id":"last","method":"ping"}"#)
        // The transport reads in order and answers nothing before: the next answer is the ping's.
        let answer = try #require(try await session.answer())
        #expect(answer["id"] as? String == "last")
        let (rest, stopped) = try await session.end()
        #expect(stopped)
        #expect(rest.isEmpty)
    }

    @Test func aLineOverTheLimitIsAnInvalidRequestAndTheNextLineIsAnswered() async throws {
        let session = try MCPSession()
        let long = #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"text":""# + String(repeating: "a", count: 4 * 1024 * 1024) + #""}}"#
        try await session.send(long)
        try await session.send(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        let refused = try #require(try await session.answer())
        #expect(refused["id"] is NSNull)
        #expect((refused["error"] as? [String: Any])?["code"] as? Int == -32600)
        #expect(((refused["error"] as? [String: Any])?["message"] as? String)?.contains("over the limit of 4194304 bytes") == true)
        #expect(try await session.answer()?["id"] as? Int == 2)
        try await session.end()
    }

    @Test func aMessageJustWithinTheLimitIsRead() async throws {
        let session = try MCPSession()
        let head = #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"text":""#
        let tail = #""}}"#
        try await session.send(head + String(repeating: "a", count: 4 * 1024 * 1024 - head.utf8.count - tail.utf8.count) + tail)
        #expect(try await session.answer()?["result"] != nil)
        try await session.end()
    }

    @Test func requestsReadBeforeTheInputEndsAreAnsweredBeforeTheServerStops() async throws {
        let session = try MCPSession()
        try await session.send(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Echo_Add","arguments":{"first":20,"second":22}}}"#)
        try await session.send(Data(#"{"jsonrpc":"2.0","id":2,"method":"pi"#.utf8))
        let (answers, stopped) = try await session.end()
        #expect(stopped)
        let byID = Dictionary(answers.map { (AnswerOracle.AnswerID($0["id"]), $0) }, uniquingKeysWith: { first, _ in first })
        #expect(((byID[.integer(1)]?["result"] as? [String: Any])?["structuredContent"] as? [String: Any])?["value"] as? Int == 42)
        #expect((byID[nil]?["error"] as? [String: Any])?["code"] as? Int == -32700)
        #expect(answers.count == 2)
    }

    @Test func aQuestionStillOpenWhenTheInputEndsFailsItsCall() async throws {
        let session = try MCPSession()
        try await session.initialize(elicitation: true)
        try await session.send(#"{"jsonrpc":"2.0","id":"say","method":"tools/call","params":{"name":"Echo_Say","arguments":{}}}"#)
        let question = try #require(try await session.answer())
        #expect(question["method"] as? String == "elicitation/create")
        let (answers, stopped) = try await session.end()
        #expect(stopped)
        let call = try #require(answers.first { $0["id"] as? String == "say" })
        #expect((call["result"] as? [String: Any])?["isError"] as? Bool == true)
        #expect(answers.count == 1)
    }

    @Test func anAnsweredQuestionCompletesItsCall() async throws {
        let session = try MCPSession()
        try await session.initialize(elicitation: true)
        try await session.send(#"{"jsonrpc":"2.0","id":"say","method":"tools/call","params":{"name":"Echo_Say","arguments":{}}}"#)
        let question = try #require(try await session.answer())
        let id = try #require(AnswerOracle.AnswerID(question["id"]))
        try await session.send(#"{"jsonrpc":"2.0","id":\#(id),"result":{"action":"accept","content":{"text":"hello"}}}"#)
        let call = try #require(try await session.answer())
        #expect(((call["result"] as? [String: Any])?["structuredContent"] as? [String: Any])?["value"] as? String == "hello")
        try await session.end()
    }
}
