import Foundation
import Testing

/// The Text, Data, Math, Dates and Lists apps, driven through the `shortcuts` binary on YAML
/// workflows: a pipeline through all five, located validation errors for literal mistakes,
/// and runs that fail naming the step and the cause for bad input read at run time.
@Suite("Value actions", .endToEnd)
struct ValueActionTests {
    static func fixture(_ name: String) -> String { PackagePaths.fixture("Values/" + name) }

    @Test func aReleaseGoesThroughEveryValueApp() async throws {
        let release = #"""
            {"title": "spring release", "published": "30/03/2024 09:00", "sizes": [1.25, 2.5, 3], "notes": "zeta; alpha, Beta",
             "assets": [{"name": "app.tar.gz", "size": 120}, {"name": "notes, \"final\".txt", "size": 3}]}
            """#
        let input = String(decoding: try JSONSerialization.data(withJSONObject: ["json": release]), as: UTF8.self)
        let result = try await ShortcutsBinary().run(["run", Self.fixture("release-notes.yaml"), "--input-path", "-"], input: input)
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output == """
                Spring Release: notes, "final".txt, due Tuesday 30 April 2024, 09:00 (30 days), average size 2.3
                alpha | Beta | zeta
                name,size
                app.tar.gz,120
                "notes, ""final"".txt",3


                """)
    }

    @Test func aLiteralBadRegexIsReportedAtTheValueBeforeAnythingRuns() async throws {
        let shortcuts = try ShortcutsBinary()
        let file = Self.fixture("bad-regex.yaml")
        for command in [["validate", file], ["run", file]] {
            let result = try await shortcuts.run(command)
            #expect(result.status == 1)
            #expect(
                result.error.contains(
                    """
                    \(file):7:16: error: invalid regular expression '(\\w+@': expected ')'
                        7 |       pattern: "(\\\\w+@"
                          |                ^~~~~~~~
                    help: escape a special character with a backslash, such as \\( or \\.
                    """), "\(result.error)")
        }
        #expect(try await shortcuts.run(["runs", "list", "--json"]).output.contains("Bad regex") == false)
    }

    @Test func aBadRegexFromAnInputFailsTheRunNamingTheStep() async throws {
        let shortcuts = try ShortcutsBinary()
        let file = Self.fixture("match-input.yaml")
        let result = try await shortcuts.run(["run", file, "--input", "text=abc", "--input", "pattern=[a-"])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("\(file):7:14: error: Text.Match failed: invalid regular expression '[a-' in 'pattern': expected ']'\n"))
        let failed = try await shortcuts.run(["runs", "list", "--status", "failed"]).output
        #expect(failed.contains("Match input"))
        let good = try await shortcuts.run(["run", file, "--input", "text=ann@home", "--input", #"pattern=(?<user>\w+)@"#, "--json"])
        #expect(good.status == 0)
        #expect(good.output.contains(#""user" : "ann""#))
    }

    @Test func invalidJSONFailsWithItsLineAndColumn() async throws {
        let shortcuts = try ShortcutsBinary()
        let file = Self.fixture("parse-json.yaml")
        let result = try await shortcuts.run(["run", file, "--input", "text={\"a\": [1,\n  2,, 3]}"])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("\(file):6:14: error: Data.ParseJSON failed: invalid JSON at line 2, column 5: expected a value, found ','\n"))
        let runs = try await shortcuts.run(["runs", "list", "--status", "failed", "--json"]).output
        #expect(runs.contains("Parse JSON"))
    }

    @Test func invalidCSVFailsWithItsLine() async throws {
        let shortcuts = try ShortcutsBinary()
        let file = Self.fixture("parse-csv.yaml")
        let result = try await shortcuts.run(["run", file, "--input", "text=a,b\n1,\"2\n3"])
        #expect(result.status == 1)
        #expect(
            result.error.hasPrefix(
                "\(file):6:14: error: Data.ParseCSV failed: invalid CSV at line 2: the quoted field that starts here is not closed with '\"'\n"))
        #expect(try await shortcuts.run(["runs", "list", "--status", "failed"]).output.contains("Parse CSV"))
        let good = try await shortcuts.run(["run", file, "--input", "text=a,b\n1,\"x\ny\"\n", "--json"])
        #expect(good.status == 0)
        #expect(good.output.contains(#""b" : "x\ny""#), "\(good.output)")
    }

    @Test func topAuthorsCountsTheLibraryByAuthor() async throws {
        let result = try await ShortcutsBinary().run(["run", Self.fixture("top-authors.yaml"), "--json"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.hasSuffix("Top author: Jane Austen (3 books)\n"))
        let top = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]]
        #expect(top?.map { $0["key"] as? String } == ["Jane Austen", "Delia Owens"])
        #expect(top?.map { $0["count"] as? Int } == [3, 2])
    }

    @Test func theValueAppsAreListedWithTheirIntents() async throws {
        let result = try await ShortcutsBinary().run(["list", "intents"])
        #expect(result.status == 0)
        for name in [
            "Text.Split", "Text.Combine", "Text.Replace", "Text.Match", "Text.ChangeCase", "Text.Trim", "Data.ParseJSON", "Data.EncodeJSON",
            "Data.GetValue", "Data.SetValue", "Data.ParseCSV", "Data.EncodeCSV", "Math.Calculate", "Math.Round", "Math.Statistics",
            "Math.RandomNumber", "Dates.Adjust", "Dates.Format", "Dates.Parse", "Dates.Difference", "Lists.GetItem", "Lists.Sort",
            "Lists.Unique", "Lists.Count"
        ] {
            #expect(result.output.contains(name), "\(name)")
        }
    }
}
