import Foundation
import IntentKit
import Testing

@testable import WorkflowKit

/// Masking secret values in text, in values of every kind, in traces and in errors.
@Suite("Secret mask")
struct SecretMaskTests {
    let mask = SecretMask(values: ["s3cr3t-token", "s3cr3t-token-long", "ab", "line one\nline \"two\""])

    @Test func textLosesEveryOccurrenceLongestFirst() {
        #expect(mask.mask("Bearer s3cr3t-token") == "Bearer ***")
        #expect(mask.mask("s3cr3t-token,s3cr3t-token") == "***,***")
        #expect(mask.mask("s3cr3t-token-long!") == "***!")
        #expect(mask.mask("no secret here") == "no secret here")
        #expect(mask.mask("é s3cr3t-token é") == "é *** é")
        #expect(SecretMask.none.mask("s3cr3t-token") == "s3cr3t-token")
    }

    @Test func aShortValueIsMaskedOnlyAsAWholeText() {
        #expect(mask.mask("ab") == "***")
        #expect(mask.mask("abc") == "abc")
        #expect(mask.mask(IntentValue.list([.string("ab"), .string("tab")])) == .list([.string("***"), .string("tab")]))
    }

    @Test func theJSONFormOfAValueIsMaskedToo() {
        let json = IntentValue.dictionary(["v": .string("line one\nline \"two\"")]).jsonText
        #expect(json.contains("line one\\nline \\\"two\\\""))
        #expect(mask.mask(json).contains("\"***\""))
        #expect(!mask.mask(json).contains("two"))
        #expect(mask.mask("line one\nline \"two\"") == "***")
    }

    @Test func valuesAreMaskedRecursively() throws {
        let entity = EntityValue(
            typeName: "Account", identifier: "id-s3cr3t-token", title: "s3cr3t-token", subtitle: "for s3cr3t-token",
            properties: ["token": .string("s3cr3t-token"), "count": .int(2)])
        let value = IntentValue.dictionary([
            "s3cr3t-token": .string("key"),
            "list": .list([.string("a s3cr3t-token"), .int(1), .null, .bool(true)]),
            "url": .url(try #require(URL(string: "https://example.com/?token=s3cr3t-token"))),
            "file": .file(IntentFile(fileURL: URL(fileURLWithPath: "/tmp/s3cr3t-token.txt"))),
            "case": .enumCase(EnumCaseValue(typeName: "Kind", rawValue: "s3cr3t-token", title: "Title s3cr3t-token")),
            "entity": .entity(entity),
            "date": .date(Date(timeIntervalSince1970: 0))
        ])
        let masked = mask.mask(value)
        #expect(!masked.jsonText.contains("s3cr3t"))
        guard case .dictionary(let entries) = masked else {
            Issue.record("not a dictionary")
            return
        }
        #expect(entries["***"] == .string("key"))
        #expect(entries["url"] == .url(try #require(URL(string: "https://example.com/?token=***"))))
        #expect(entries["file"]?.displayText.contains("/tmp/***.txt") == true)
        guard case .entity(let maskedEntity) = entries["entity"] else {
            Issue.record("not an entity")
            return
        }
        #expect(maskedEntity.identifier == "id-***" && maskedEntity.title == "***" && maskedEntity.subtitle == "for ***")
        #expect(maskedEntity.properties == ["token": .string("***"), "count": .int(2)])
        #expect(entries["date"] == .date(Date(timeIntervalSince1970: 0)))
    }

    func trace(containing secret: String) -> StepTrace {
        StepTrace(
            kind: "show", stepID: "step", location: SourceLocation(file: "a.yaml", line: 2, column: 5), depth: 0,
            inputs: ["header": .string("Bearer \(secret)")], output: .list([.string(secret)]), dialog: "said \(secret)",
            startedAt: Date(), duration: .zero, error: "failed with \(secret)")
    }

    @Test func everyTextFieldOfATraceIsMasked() {
        let masked = mask.mask(trace(containing: "s3cr3t-token"))
        #expect(masked.inputs == ["header": .string("Bearer ***")])
        #expect(masked.output == .list([.string("***")]))
        #expect(masked.dialog == "said ***")
        #expect(masked.error == "failed with ***")
        #expect(!Self.texts(in: masked).contains { $0.contains("s3cr3t") })
    }

    /// Fails when `StepTrace` gains a field the mask does not know about, so that a new field
    /// holding run values (such as `details: [String: IntentValue]`) is masked in
    /// `SecretMask.mask(_: StepTrace)` (with `mask(_: [String: IntentValue])`) before it is written.
    @Test func theMaskKnowsEveryFieldOfATrace() {
        let fields = Set(Mirror(reflecting: trace(containing: "x")).children.compactMap(\.label))
        #expect(fields == SecretMask.maskedTraceFields.union(SecretMask.unmaskedTraceFields))
        #expect(SecretMask.maskedTraceFields.isDisjoint(with: SecretMask.unmaskedTraceFields))
    }

    @Test func runErrorsAreMaskedInTheirMessageAndHelp() {
        let error = WorkflowRunError(
            "the server refused s3cr3t-token", at: SourceLocation(file: "a.yaml", line: 1, column: 1), help: "check s3cr3t-token")
        let masked = mask.mask(error)
        #expect(masked.diagnostic.message == "the server refused ***")
        #expect(masked.diagnostic.help == "check ***")
        struct Other: Error, CustomStringConvertible { var description: String }
        #expect("\(mask.mask(Other(description: "bad s3cr3t-token") as any Error))" == "bad ***")
        #expect(mask.mask(Other(description: "plain") as any Error) is Other)
    }

    /// Every text a value holds, found by reflection, to check that none holds a secret.
    static func texts(in value: Any) -> [String] {
        if let text = value as? String { return [text] }
        if let intentValue = value as? IntentValue { return [intentValue.jsonText] }
        return Mirror(reflecting: value).children.flatMap { texts(in: $0.value) }
    }
}
