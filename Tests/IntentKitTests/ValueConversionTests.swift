import Foundation
import IntentKit
import Testing

struct ValueConversionTests {
    func perform(_ arguments: [String: IntentValue]) async throws -> [String: IntentValue] {
        let outcome = try await IntentPerformer(catalog: testCatalog).perform("Everything", arguments: arguments)
        guard case .dictionary(let values)? = outcome.value else { throw ValueConversionError(value: .null, expectedType: .any) }
        return values
    }

    @Test func textConvertsToEveryParameterType() async throws {
        let values = try await perform([
            "text": .int(42), "number": .string(" 7 "), "ratio": .string("2.5"), "flag": .string("Yes"),
            "day": .string("2018-08-14"), "link": .string("https://example.com/a"),
            "identifier": .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), "attachment": .string("/tmp/notes.txt"),
            "size": .string("LARGE"), "color": .string("rose"), "tags": .string("one"),
            "colors": .list([.string("red"), .string("Blue")])
        ])
        #expect(
            values == [
                "text": .string("42"), "number": .string("7"), "ratio": .string("2.5"), "flag": .string("true"),
                "day": .string("2018-08-14"), "link": .string("https://example.com/a"),
                "identifier": .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), "attachment": .string("notes.txt"),
                "size": .string("large"), "color": .string("Rose"), "tags": .string("one"), "colors": .string("Red+Blue")
            ])
    }

    @Test func defaultsApplyAndOptionalsStayEmpty() async throws {
        let values = try await perform(["text": .string("x")])
        #expect(values == ["text": .string("x"), "number": .string("1")])
    }

    @Test(arguments: [
        ("number", IntentValue.string("seven"), "cannot use String 'seven' as Int (write a whole number such as 3)"),
        ("ratio", .string("half"), "cannot use String 'half' as Double (write a number such as 2.5)"),
        ("flag", .string("maybe"), "cannot use String 'maybe' as Bool (write true or false)"),
        ("day", .string("2023-02-30"), "cannot use String '2023-02-30' as Date (write an ISO 8601 date such as 2018-08-14 or 2018-08-14T09:30:00Z)"),
        ("size", .string("huge"), "cannot use String 'huge' as Size (one of small, large)"),
        ("color", .string("green"), "no Color matches 'green'")
    ])
    func wrongValuesGiveActionableErrors(name: String, value: IntentValue, message: String) async throws {
        do {
            _ = try await perform(["text": .string("x"), name: value])
            Issue.record("expected an error for \(name)")
        } catch {
            #expect("\(error)".hasSuffix(message))
        }
    }

    @Test func everyTypeRoundTripsThroughIntentValue() throws {
        let date = DateText.parse("2020-02-29T12:30:00Z")!
        #expect(try Int(intentValue: 5.intentValue) == 5)
        #expect(try Double(intentValue: .int(3)) == 3)
        #expect(try Bool(intentValue: true.intentValue))
        #expect(try Date(intentValue: date.intentValue) == date)
        #expect(try Date(intentValue: .string(DateText.format(date))) == date)
        #expect(try URL(intentValue: URL(string: "https://a.b")!.intentValue) == URL(string: "https://a.b"))
        let uuid = UUID()
        #expect(try UUID(intentValue: uuid.intentValue) == uuid)
        #expect(try Size(intentValue: Size.large.intentValue) == .large)
        #expect(try Size(intentValue: .string("Small")) == .small)
        #expect(try [Int](intentValue: [1, 2].intentValue) == [1, 2])
        #expect(try Int?(intentValue: .null) == nil)
        let color = Color.all[0]
        #expect(try Color(intentValue: color.intentValue).name == "Red")
        #expect(color.intentValue.member("brightness") == .int(40))
        #expect(try IntentFile(intentValue: .string("/tmp/a.txt")).filename == "a.txt")
    }

    @Test func jsonRoundTrips() throws {
        let value = IntentValue.dictionary(["a": .list([.int(1), .double(2.5), .bool(true), .null, .string("x")])])
        #expect(try IntentValue.fromJSON(value.jsonText) == value)
        let scalars = try IntentValue.fromJSON("[true, false, 1, 0, 1.5, -3]")
        #expect(scalars == .list([.bool(true), .bool(false), .int(1), .int(0), .double(1.5), .int(-3)]))
    }

    @Test func displayTextReadsNaturally() {
        #expect(IntentValue.list([.int(1), .string("two"), .double(2.5)]).displayText == "1, two, 2.5")
        #expect(IntentValue.date(DateText.parse("2018-08-14")!).displayText == "2018-08-14")
        #expect(IntentValue.date(DateText.parse("2018-08-14T09:30:00Z")!).displayText == "2018-08-14T09:30:00Z")
    }
}

/// The one conversion path by type, which workflows' inputs and answers use too.
@Suite("Coercion by type")
struct CoercionByTypeTests {
    @Test func convertsByTheDocumentedRules() throws {
        #expect(try ValueCoercion.coerce(.string("3"), to: .int) == .int(3))
        #expect(try ValueCoercion.coerce(.string("yes"), to: .optional(.bool)) == .bool(true))
        #expect(try ValueCoercion.coerce(.null, to: .optional(.int)) == .null)
        #expect(try ValueCoercion.coerce(.list([.string("1"), .double(2)]), to: .list(.int)) == .list([.int(1), .int(2)]))
        #expect(try ValueCoercion.coerce(.string("small"), to: Size.intentValueType) == Size.small.intentValue)
        #expect(throws: ValueConversionError.self) { try ValueCoercion.coerce(.string("three"), to: .int) }
    }

    @Test func dictionariesAndAnyValuesConvert() throws {
        let headers: [String: String] = try .init(intentValue: .dictionary(["Accept": .string("text/plain"), "X-Count": .int(3)]))
        #expect(headers == ["Accept": "text/plain", "X-Count": "3"])
        #expect([String: Int].intentValueType.description == "[String: Int]")
        #expect(try [String: Int](intentValue: .null).isEmpty)
        #expect(throws: ValueConversionError.self) { try [String: Int](intentValue: .list([.int(1)])) }
        #expect(throws: ValueConversionError.self) { try ValueCoercion.coerce(.string("a=1"), to: .dictionary(.string)) }
        let anything = IntentValue.list([.dictionary(["a": .int(1)])])
        #expect(try IntentValue(intentValue: anything) == anything)
        #expect(IntentValue.intentValueType == .any)
    }
}
