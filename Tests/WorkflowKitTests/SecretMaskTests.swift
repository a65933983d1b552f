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

    @Test func percentEncodedFormsAreMasked() {
        let mask = SecretMask(values: ["p@ss word/+=ü"])
        #expect(mask.mask("GET https://example.com/?key=p%40ss%20word%2F%2B%3D%C3%BC failed") == "GET https://example.com/?key=*** failed")
        #expect(mask.mask("key=p%40ss+word%2F%2B%3D%C3%BC") == "key=***")
        #expect(mask.mask("key=p%40ss%20word%2f%2b%3d%c3%bc") == "key=***")
        #expect(mask.mask("/path/p@ss%20word/+=%C3%BC/x") == "/path/***/x")
    }

    @Test func eachLineOfAValueOfSeveralLinesIsMasked() {
        let key = "-----BEGIN KEY-----\nMIIEvQIBADANBgkq\nAB12==\n-----END KEY-----"
        let mask = SecretMask(values: [key])
        // The last lines a failing program wrote, as an error quotes them.
        #expect(mask.mask("error: bad line AB12==\n-----END KEY-----") == "error: bad line ***\n***")
        #expect(!mask.mask("found MIIEvQIBADANBgkq in the input").contains("MIIEvQ"))
    }

    @Test func aPieceOfAValueQuotedAloneIsMasked() {
        let token = "ghp_7Yk2mQ9xRt4vLw8Zc1Bn5Hj3Pd6Fs0Ga"
        let mask = SecretMask(values: [token])
        // A parser that quotes the first characters it could not read.
        #expect(mask.mask("expected a value, found 'ghp_7Yk2mQ9xRt4vLw8Z'") == "expected a value, found '***'")
        #expect(mask.mask("…Lw8Zc1Bn5Hj3Pd…") == "…***…")
        // Shorter than a part: left as it is.
        #expect(mask.mask("found 'ghp_7Yk2mQ9'") == "found 'ghp_7Yk2mQ9'")
        // A piece of a value's JSON form, and a piece that ends inside a character.
        let accented = SecretMask(values: ["clé-secrète-très-longue"])
        #expect(accented.mask("read 'secrète-très' here") == "read '***' here")
        // "secrète-tr" and the first byte of "é" are a piece of "secrète-très": the run takes the whole "é".
        #expect(accented.mask("read 'secrète-tré' here") == "read '***' here")
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
