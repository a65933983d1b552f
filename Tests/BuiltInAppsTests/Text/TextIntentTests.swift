import IntentKit
import Testing

@Suite struct TextIntentTests {
    @Test func splitsByEachMode() async throws {
        #expect(try await BuiltInIntents.perform("Text.Split", ["text": .string("a\nb\n")]) == .list([.string("a"), .string("b")]))
        #expect(
            try await BuiltInIntents.perform("Text.Split", ["text": .string(" a  b "), "by": .string("spaces")])
                == .list([.string("a"), .string("b")]))
        #expect(
            try await BuiltInIntents.perform(
                "Text.Split", ["text": .string("a;b;;c"), "by": .string("separator"), "separator": .string(";"), "omitEmpty": .bool(true)])
                == .list([.string("a"), .string("b"), .string("c")]))
        #expect(
            try await BuiltInIntents.perform("Text.Split", ["text": .string("a1b22c"), "by": .string("regex"), "separator": .string("[0-9]+")])
                == .list([.string("a"), .string("b"), .string("c")]))
    }

    @Test func splittingAtARegexNeedsOne() async {
        let message = await BuiltInIntents.failure("Text.Split", ["text": .string("a"), "by": .string("regex")])
        #expect(message == "Text.Split failed: invalid 'separator': splitting at a regex needs one; add 'separator:'")
    }

    @Test func combinesWithASeparator() async throws {
        #expect(try await BuiltInIntents.perform("Text.Combine", ["list": .list([.string("a"), .int(2)])]) == .string("a\n2"))
        #expect(
            try await BuiltInIntents.perform("Text.Combine", ["list": .list([.string("a"), .int(2)]), "separator": .string(", ")]) == .string("a, 2"))
    }

    @Test func replacesTextAndPatterns() async throws {
        #expect(
            try await BuiltInIntents.perform(
                "Text.Replace",
                ["text": .string("Cats and CATS"), "find": .string("cats"), "replacement": .string("dogs"), "caseInsensitive": .bool(true)])
                == .string("dogs and dogs"))
        #expect(
            try await BuiltInIntents.perform(
                "Text.Replace",
                ["text": .string("2024-05-01"), "find": .string(#"(\d+)-(\d+)-(\d+)"#), "replacement": .string("$3/$2/$1"), "regex": .bool(true)])
                == .string("01/05/2024"))
        #expect(
            try await BuiltInIntents.perform("Text.Replace", ["text": .string("a.b"), "find": .string("."), "replacement": .string("-")])
                == .string("a-b"))
    }

    @Test func aBadRegexAtRunTimeFailsTheStepSayingWhy() async throws {
        let message = try #require(await BuiltInIntents.failure("Text.Match", ["text": .string("x"), "pattern": .string("(unclosed")]))
        #expect(message.hasPrefix("Text.Match failed: invalid regular expression '(unclosed' in 'pattern': "))
        let replace = try #require(
            await BuiltInIntents.failure("Text.Replace", ["text": .string("x"), "find": .string("[a-"), "regex": .bool(true)]))
        #expect(replace.hasPrefix("Text.Replace failed: invalid regular expression '[a-'"))
    }

    @Test func matchesWithGroups() async throws {
        let matches = try await BuiltInIntents.perform(
            "Text.Match", ["text": .string("ann@home, BOB@work"), "pattern": .string(#"(?<user>[a-z]+)@(\w+)"#)])
        #expect(matches.elements.count == 1)
        #expect(matches.elements.first?.member("named")?.member("user") == .string("ann"))
        let ignoringCase = try await BuiltInIntents.perform(
            "Text.Match", ["text": .string("ann@home, BOB@work"), "pattern": .string(#"([a-z]+)@(\w+)"#), "caseInsensitive": .bool(true)])
        #expect(ignoringCase.elements.map { $0.member("groups")?.elements.first } == [.string("ann"), .string("BOB")])
    }

    @Test func changesCaseAndTrims() async throws {
        #expect(try await BuiltInIntents.perform("Text.ChangeCase", ["text": .string("hello world")]) == .string("HELLO WORLD"))
        #expect(
            try await BuiltInIntents.perform("Text.ChangeCase", ["text": .string("hello world"), "to": .string("title")]) == .string("Hello World"))
        #expect(
            try await BuiltInIntents.perform("Text.ChangeCase", ["text": .string("Hello World"), "to": .string("snake")]) == .string("hello_world"))
        #expect(try await BuiltInIntents.perform("Text.Trim", ["text": .string("  hi\n")]) == .string("hi"))
        #expect(try await BuiltInIntents.perform("Text.Trim", ["text": .string("--hi--"), "characters": .string("-")]) == .string("hi"))
    }

    @Test func aLiteralBadRegexIsAValidationErrorAtTheValue() throws {
        let yaml = """
            steps:
              - perform: Text.Match
                with: { text: abc, pattern: "(unclosed" }
              - perform: Text.Replace
                with:
                  text: abc
                  find: "[a-"
                  regex: true
              - perform: Text.Replace
                with: { text: abc, find: "[a-" }
              - perform: Text.Split
                with: { text: abc, by: regex, separator: "*" }
            """
        let diagnostics = try BuiltInIntents.diagnostics(of: yaml)
        #expect(diagnostics.count == 3, "\(diagnostics)")
        #expect(diagnostics.first?.hasPrefix("3:33: invalid regular expression '(unclosed': expected ')'") == true, "\(diagnostics)")
        #expect(diagnostics.dropFirst().first?.hasPrefix("7:13: invalid regular expression '[a-': ") == true, "\(diagnostics)")
        #expect(diagnostics.last?.hasPrefix("12:46: invalid regular expression '*': ") == true, "\(diagnostics)")
    }

    @Test func aPatternFromAVariableIsNotCheckedBeforeTheRun() throws {
        let yaml = """
            input:
              pattern: { type: String }
            steps:
              - perform: Text.Match
                with: { text: abc, pattern: "${input.pattern}" }
            """
        #expect(try BuiltInIntents.diagnostics(of: yaml).isEmpty)
    }
}
