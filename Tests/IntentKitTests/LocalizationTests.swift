import Foundation
import IntentKit
import Testing

struct LocalizationTests {
    func catalog() throws -> StringsCatalog {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("ja.lproj"), withIntermediateDirectories: true)
        try """
        /* comment */
        "Added %@ to Library!" = "%@をライブラリに追加しました！";
        // another comment
        "Did you mean %@ by %@?" = "%2$@の『%1$@』のことですか？";
        "Escapes" = "a \\"quoted\\" \\U3042 line\\n";
        """.write(to: folder.appendingPathComponent("ja.lproj/Localizable.strings"), atomically: true, encoding: .utf8)
        return try StringsCatalog(directory: folder)
    }

    @Test func interpolatedResourcesUseTranslatedFormats() throws {
        let japanese = Localization(locale: "ja-JP", strings: try catalog())
        let title = "Emma"
        let added: LocalizedStringResource = "Added \(title) to Library!"
        #expect(added.key == "Added %@ to Library!")
        #expect(added.resolved(in: japanese) == "Emmaをライブラリに追加しました！")
        #expect(added.resolved(in: Localization()) == "Added Emma to Library!")
        let author = "Jane Austen"
        let question: LocalizedStringResource = "Did you mean \(title) by \(author)?"
        #expect(question.resolved(in: japanese) == "Jane Austenの『Emma』のことですか？")
        #expect(LocalizedStringResource("Escapes").resolved(in: japanese) == "a \"quoted\" あ line\n")
        let count: LocalizedStringResource = "\(3) copies, 100%"
        #expect(count.key == "%lld copies, 100%%")
        #expect(count.resolved(in: japanese) == "3 copies, 100%")
    }

    @Test func malformedStringsFilesNameTheLineAndColumn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("ja.lproj"), withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("ja.lproj/Localizable.strings")
        try "\"a\" = \"b\";\n\"c\" \"d\";\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: StringsFileError.self) { try StringsCatalog(directory: folder) }
        do {
            _ = try StringsCatalog(directory: folder)
        } catch {
            #expect("\(error)" == "\(file.path):2:5: error: expected '=': write \"key\" = \"value\";")
        }
    }
}

struct SnippetTests {
    struct Card: SnippetView {
        var showNote: Bool
        var body: some SnippetView {
            Box("Card") {
                Text("Title").bold()
                HStack {
                    Text("left")
                    Text("right")
                }
                if showNote { Text("note") }
                for index in 1...2 { Text("line \(index)") }
                Divider()
            }
        }
    }

    @Test func viewsRenderAsFramedText() {
        let rendered = SnippetRenderer.render(Card(showNote: true), in: SnippetRenderContext(width: 20))
        #expect(
            rendered == """
                ┌─ Card ───────────┐
                │ Title            │
                │ left     right   │
                │ note             │
                │ line 1           │
                │ line 2           │
                │ ──────────────── │
                └──────────────────┘
                """)
    }

    @Test func longTextWrapsAndWideCharactersCountTwice() {
        #expect(SnippetRenderer.render(Text("one two three four"), in: SnippetRenderContext(width: 9)) == "one two\nthree\nfour")
        #expect(SnippetRenderer.render(Text("読んでいる本"), in: SnippetRenderContext(width: 6)) == "読んで\nいる本")
    }

    @Test func stylesUseEscapeCodesOnlyWhenAsked() {
        #expect(SnippetRenderer.render(Text("x").bold(), in: SnippetRenderContext(usesStyles: true)) == "\u{1B}[1mx\u{1B}[0m")
        #expect(SnippetRenderer.render(Text("x").bold()) == "x")
    }
}
