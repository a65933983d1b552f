import Foundation
import Testing

/// `shortcuts mcp` given mutations of real messages (``MessageMutator``): each line is answered
/// as ``AnswerOracle`` says JSON-RPC 2.0 answers it (a notification or a response not at
/// all), within a bound, and the server goes on answering.
@Suite(.timeLimit(.minutes(10)))
struct MCPServerFuzzTests {
    static let cases = 400
    static let seed: UInt64 = 20_260_301
    /// The longest wait for any one answer: far longer than the slowest case takes, even on a
    /// machine whose cores other suites keep busy (a hang is what it catches, not slowness).
    static let bound: Duration = .seconds(60)

    /// What went wrong, by case.
    struct Findings {
        /// Lines an answer was expected to and none came within the bound.
        var hangs: [String] = []
        /// Answers that are no JSON-RPC 2.0 response, or that no line expected (a made-up id, a
        /// wrong code, an answer to a notification).
        var offSpec: [String] = []
    }

    @Test func everyMutatedMessageIsAnsweredByTheRulesAndTheServerGoesOn() async throws {
        let session = try MCPSession()
        try await session.initialize()
        var mutator = MessageMutator(seed: Self.seed)
        var findings = Findings()
        for number in 0..<Self.cases {
            let (kind, bytes) = mutator.next()
            let name = "case \(number) (\(kind))"
            var expected = AnswerOracle.expectations(for: bytes)
            try await session.send(Data(bytes) + [0x0A])
            // A ping after each case: every answer that was due comes before the ping's or with
            // the answers that follow, so no case needs waiting out a silence.
            let probe = "probe-\(number)"
            try await session.send(#"{"jsonrpc":"2.0","id":"\#(probe)","method":"ping"}"#)
            var isProbeAnswered = false
            while !isProbeAnswered || !expected.isEmpty {
                guard let answer = try await session.answer(within: Self.bound) else {
                    findings.hangs.append("\(name): \(isProbeAnswered ? "\(expected)" : "the ping after it") not answered within \(Self.bound)")
                    break
                }
                if answer["id"] as? String == probe {
                    isProbeAnswered = true
                    if answer["result"] == nil {
                        findings.offSpec.append("\(name): the ping after it was answered \(String(describing: answer).prefix(300))")
                    }
                    continue
                }
                let problems = AnswerOracle.shapeProblems(of: answer)
                if let match = expected.firstIndex(where: { AnswerOracle.answer(answer, meets: $0) }), problems.isEmpty {
                    expected.remove(at: match)
                } else {
                    findings.offSpec.append("\(name): \(String(describing: answer).prefix(300)) answers none of \(expected) \(problems)")
                }
            }
        }
        #expect(findings.hangs.isEmpty, "\(findings.hangs.count) of \(Self.cases) cases hung: \(findings.hangs.prefix(5))")
        #expect(findings.offSpec.isEmpty, "\(findings.offSpec.count) off-spec answers: \(findings.offSpec.prefix(5))")

        // Still up: a request of each kind is answered.
        try await session.send(#"{"jsonrpc":"2.0","id":"after-ping","method":"ping"}"#)
        #expect(try await session.answer(within: Self.bound)?["id"] as? String == "after-ping")
        try await session.send(#"{"jsonrpc":"2.0","id":"after-list","method":"tools/list"}"#)
        let list = try #require(try await session.answer(within: Self.bound))
        #expect(list["id"] as? String == "after-list")
        #expect(((list["result"] as? [String: Any])?["tools"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Echo_Add", "Echo_Say"])

        // A message cut short by the end of the input is answered before the server stops.
        try await session.send(Data(#"{"jsonrpc":"2.0","id":"cut","meth"#.utf8))
        let (answers, stopped) = try await session.end(within: Self.bound)
        #expect(stopped)
        #expect(answers.count == 1)
        #expect(answers.first.map { AnswerOracle.answer($0, meets: .answer(id: nil, codes: [-32700])) } == true)
    }
}
