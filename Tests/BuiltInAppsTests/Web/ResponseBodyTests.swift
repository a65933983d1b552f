import Foundation
import IntentKit
import Testing

@testable import BuiltInApps

/// The rules that turn a body into a value, and the located JSON errors.
@Suite struct ResponseBodyTests {
    @Test func jsonTypesAreRecognised() {
        for type in ["application/json", "application/json; charset=utf-8", "text/json", "application/vnd.api+json", "APPLICATION/JSON"] {
            #expect(ResponseBody.MediaType(type)?.isJSON == true, "\(type)")
        }
        #expect(ResponseBody.MediaType("text/plain")?.isJSON == false)
        #expect(ResponseBody.MediaType(" ") == nil)
        #expect(ResponseBody.MediaType(#"text/html; charset="ISO-8859-1""#)?.charset == "ISO-8859-1")
    }

    @Test func emptyJSONIsEmptyText() throws {
        #expect(try ResponseBody.value(of: Data(), contentType: "application/json") == .string(""))
    }

    @Test func aByteOrderMarkIsDropped() throws {
        #expect(try ResponseBody.value(of: Data([0xEF, 0xBB, 0xBF, 0x68, 0x69]), contentType: "text/plain") == .string("hi"))
    }

    @Test func windows1252AndUTF16AreRead() throws {
        #expect(try ResponseBody.decode(Data([0x80, 0x31]), charset: "windows-1252") == "€1")
        #expect(try ResponseBody.decode(Data([0x68, 0x00, 0x69, 0x00]), charset: "utf-16le") == "hi")
    }

    @Test func invalidJSONIsLocatedByLineAndColumn() {
        let cases: [(String, ResponseBody.Problem)] = [
            ("{\"a\": 1,\n  \"b\": x}", .invalidJSON(line: 2, column: 8, reason: "unexpected character 'x'")),
            ("[1, 2", .invalidJSON(line: 1, column: 6, reason: "the text ends before the JSON value does")),
            ("{\"名前\": ?}", .invalidJSON(line: 1, column: 8, reason: "unexpected character '?'"))
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text)") { try ResponseBody.value(of: Data(text.utf8), contentType: "application/json") }
        }
    }

    @Test func formsEncodeEverythingButUnreservedCharacters() {
        let body = RequestBody(form: ["b": "a+b=c", "a": "~ok-_."])
        #expect(String(decoding: body.data, as: UTF8.self) == "a=~ok-_.&b=a%2Bb%3Dc")
    }

    @Test func numbersAndListsAreSentAsJSON() throws {
        #expect(try RequestBody(body: .list([.int(1), .bool(true)])).data == Data("[1,true]".utf8))
        #expect(try RequestBody(body: .int(42)).contentType == "application/json")
    }
}
