import Foundation
import SeededRandom

/// Mutations of real MCP messages, from a seed, for the server's fuzz test: bytes flipped,
/// messages cut short or with parts repeated, nested deep, carrying huge strings, with members
/// of the wrong type, missing or extra.
///
/// ```swift
/// var mutator = MessageMutator(seed: 20_260_000)
/// let (kind, bytes) = mutator.next()   // ("wrong type for id", {"jsonrpc":"2.0","id":1e400,…})
/// ```
struct MessageMutator {
    /// A message as its members' names and JSON texts, in order.
    typealias Members = [(name: String, json: String)]

    /// Messages a client sends, each valid.
    static let seeds: [Members] = [
        [
            ("jsonrpc", #""2.0""#), ("id", "1"), ("method", #""initialize""#),
            ("params", #"{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1.0"}}"#)
        ],
        [("jsonrpc", #""2.0""#), ("method", #""notifications/initialized""#)],
        [("jsonrpc", #""2.0""#), ("id", "2"), ("method", #""ping""#)],
        [("jsonrpc", #""2.0""#), ("id", #""list-1""#), ("method", #""tools/list""#), ("params", "{}")],
        [("jsonrpc", #""2.0""#), ("id", "4"), ("method", #""tools/call""#), ("params", #"{"name":"Echo_Say","arguments":{"text":"hello"}}"#)],
        [
            ("jsonrpc", #""2.0""#), ("id", "5"), ("method", #""tools/call""#),
            ("params", #"{"name":"Echo_Add","arguments":{"first":2,"second":3}}"#)
        ],
        [("jsonrpc", #""2.0""#), ("method", #""notifications/cancelled""#), ("params", #"{"requestId":99,"reason":"fuzz"}"#)],
        [("jsonrpc", #""2.0""#), ("id", #""elicit-1""#), ("result", #"{"action":"decline"}"#)],
        [("jsonrpc", #""2.0""#), ("id", #""p-7""#), ("method", #""ping""#), ("params", #"{"_meta":{"progressToken":3}}"#)]
    ]

    /// Values of the wrong type, or out of range, for any member.
    static let wrongValues = [
        "null", "true", "1.5", "1e400", "-1e400", "99999999999999999999", "-1", #""x""#, "[]", "{}", "[1,2]", #""\ud800""#,
        #""""#, "0", #"{"name":1}"#
    ]

    private var random: SeededRandomNumberGenerator

    init(seed: UInt64) {
        random = SeededRandomNumberGenerator(seed: seed)
    }

    /// The text of a message.
    static func json(_ members: Members) -> String {
        "{" + members.map { "\"\($0.name)\":\($0.json)" }.joined(separator: ",") + "}"
    }

    /// The next mutation: what it did, and the bytes to send (a newline within them splits them
    /// into lines).
    mutating func next() -> (kind: String, bytes: [UInt8]) {
        var members = Self.seeds[Int.random(in: 0..<Self.seeds.count, using: &random)]
        var bytes = Array(Self.json(members).utf8)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<25:
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                bytes[position] =
                    Bool.random(using: &random)
                    ? bytes[position] ^ (1 << UInt8.random(in: 0..<8, using: &random)) : UInt8.random(in: 0...255, using: &random)
            }
            return ("byte flip", bytes)
        case 25..<37:
            return ("truncation", Array(bytes[..<Int.random(in: 0..<bytes.count, using: &random)]))
        case 37..<47:
            let start = Int.random(in: 0..<bytes.count, using: &random)
            let end = Int.random(in: start...bytes.count, using: &random)
            bytes.insert(contentsOf: bytes[start..<end], at: Int.random(in: 0...bytes.count, using: &random))
            return ("duplication", bytes)
        case 47..<55:
            let depth = [10, 253, 254, 255, 256, 257, 5_000, 200_000][Int.random(in: 0..<8, using: &random)]
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            if Bool.random(using: &random) {
                Self.set("params", to: #"{"name":"Echo_Say","arguments":{"text":"# + nested + "}}", in: &members)
                return ("deep nesting in params (\(depth))", Array(Self.json(members).utf8))
            }
            return (
                "deep nesting around the message (\(depth))",
                Array((String(repeating: "[", count: depth) + Self.json(members) + String(repeating: "]", count: depth)).utf8)
            )
        case 55..<60:
            let length = [100_000, 1_000_000, 3_000_000, 4 * 1024 * 1024 + 1][Int.random(in: 0..<4, using: &random)]
            let text = String(repeating: "a", count: length)
            Self.set("params", to: #"{"name":"Echo_Say","arguments":{"text":""# + text + #""}}"#, in: &members)
            return ("huge string (\(length) bytes)", Array(Self.json(members).utf8))
        case 60..<80:
            let name = ["id", "method", "params", "jsonrpc"][Int.random(in: 0..<4, using: &random)]
            let value = Self.wrongValues[Int.random(in: 0..<Self.wrongValues.count, using: &random)]
            Self.set(name, to: value, in: &members)
            return ("wrong type for \(name): \(value)", Array(Self.json(members).utf8))
        case 80..<88:
            let name = ["id", "method", "jsonrpc", "params"][Int.random(in: 0..<4, using: &random)]
            members.removeAll { $0.name == name }
            return ("without \(name)", Array(Self.json(members).utf8))
        case 88..<94:
            let extras: Members = [("result", "{}"), ("error", #"{"code":-32000,"message":"x"}"#), ("id", "77")]
            let extra = extras[Int.random(in: 0..<extras.count, using: &random)]
            members.append(extra)
            return ("with \(extra.name) added", Array(Self.json(members).utf8))
        default:
            let value = Self.wrongValues[Int.random(in: 0..<Self.wrongValues.count, using: &random)]
            return ("a bare value: \(value)", Array(value.utf8))
        }
    }

    /// Gives a member a value, added at the end when the message has none.
    private static func set(_ name: String, to json: String, in members: inout Members) {
        if let index = members.firstIndex(where: { $0.name == name }) {
            members[index].json = json
        } else {
            members.append((name, json))
        }
    }
}
