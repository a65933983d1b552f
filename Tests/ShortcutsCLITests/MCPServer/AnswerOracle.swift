import Foundation

/// What JSON-RPC 2.0 (with MCP's rules: ids are strings or integers, no batches) says a server
/// answers to one line, worked out from ``JSONGrammar`` alone.
///
/// ```swift
/// AnswerOracle.expectation(for: Array("nope".utf8))   // .answer(id: nil, codes: [-32700])
/// ```
enum AnswerOracle {
    /// The methods the server answers.
    static let servedMethods: Set<String> = ["initialize", "ping", "tools/list", "tools/call"]
    /// The longest line read.
    static let limit = 4 * 1024 * 1024

    /// An answer's id: a string, an integer, or `nil` for `null`.
    enum AnswerID: Hashable, CustomStringConvertible {
        case string(String)
        case integer(Int)

        init?(_ value: Any?) {
            if let text = value as? String {
                self = .string(text)
            } else if let number = value as? Int {
                self = .integer(number)
            } else {
                return nil
            }
        }

        var description: String {
            switch self {
            case .string(let text): "\"\(text)\""
            case .integer(let number): "\(number)"
            }
        }
    }

    enum Expectation: Equatable {
        /// No answer: a notification, a response, a blank line.
        case none
        /// One answer with this id; `codes` the error codes it may have, `nil` when it may also
        /// be a result (a well-formed request for a served method).
        case answer(id: AnswerID?, codes: Set<Int>?)
    }

    /// What each line of bytes sent at once is answered, in order.
    static func expectations(for bytes: [UInt8]) -> [Expectation] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { expectation(for: Array($0)) }.filter { $0 != .none }
    }

    /// What one line is answered.
    static func expectation(for line: [UInt8]) -> Expectation {
        if line.allSatisfy({ " \t\r".utf8.contains($0) }) { return .none }
        if line.count > limit { return .answer(id: nil, codes: [-32600]) }
        guard let message = JSONGrammar.parse(line) else { return .answer(id: nil, codes: [-32700]) }
        guard case .object = message else { return .answer(id: nil, codes: [-32600]) }
        let id = message["id"].flatMap(readableID)
        let invalid = Expectation.answer(id: id, codes: [-32600])
        let hasResultOrError = message["result"] != nil || message["error"] != nil
        guard let method = message["method"] else { return hasResultOrError ? .none : invalid }
        guard case .string(let name?) = method, message["jsonrpc"] == .string("2.0"), !hasResultOrError else { return invalid }
        switch message["params"] {
        case nil, .null?, .object?, .array?: break
        default: return invalid
        }
        guard message["id"] != nil else { return .none }
        guard let id else { return .answer(id: nil, codes: [-32600]) }
        guard servedMethods.contains(name) else { return .answer(id: id, codes: [-32601]) }
        return .answer(id: id, codes: nil)
    }

    /// A request id the server can echo: a string, or a number whose value is an integer in
    /// `Int`'s range.
    static func readableID(_ value: JSONGrammar) -> AnswerID? {
        switch value {
        case .string(let text?): return .string(text)
        case .number(let text):
            if let integer = Int(text) { return .integer(integer) }
            guard let double = Double(text), double.isFinite, double.rounded() == double, abs(double) < 9_007_199_254_740_992 else {
                return nil
            }
            return .integer(Int(double))
        default: return nil
        }
    }

    /// The ways an answer breaks JSON-RPC 2.0's response shape or the standard codes; empty
    /// when it keeps them.
    static func shapeProblems(of answer: [String: Any]) -> [String] {
        var problems: [String] = []
        if answer["jsonrpc"] as? String != "2.0" { problems.append("jsonrpc is not \"2.0\"") }
        if !answer.keys.contains("id") { problems.append("no id") }
        let hasResult = answer.keys.contains("result")
        let error = answer["error"] as? [String: Any]
        if hasResult == (error != nil) { problems.append("not exactly one of result and error") }
        if let error {
            if !(error["message"] is String) { problems.append("an error without a message") }
            if let code = error["code"] as? Int {
                if ![-32700, -32600, -32601, -32602, -32603].contains(code) { problems.append("the code \(code) is not a standard one") }
            } else {
                problems.append("an error without an integer code")
            }
        }
        return problems
    }

    /// Whether an answer meets an expectation of one.
    static func answer(_ answer: [String: Any], meets expectation: Expectation) -> Bool {
        guard case .answer(let id, let codes) = expectation else { return false }
        guard AnswerID(answer["id"]) == id, (answer["id"] is NSNull) == (id == nil) else { return false }
        let code = (answer["error"] as? [String: Any])?["code"] as? Int
        guard let codes else { return true }
        return code.map(codes.contains) ?? false
    }
}
