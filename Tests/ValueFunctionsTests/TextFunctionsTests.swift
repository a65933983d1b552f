import IntentKit
import Testing
import ValueFunctions

@Suite struct TextFunctionsTests {
    @Test func changesCase() {
        #expect(TextFunctions.changeCase("where the crawdads sing", to: .upper) == "WHERE THE CRAWDADS SING")
        #expect(TextFunctions.changeCase("Where The Crawdads", to: .lower) == "where the crawdads")
        #expect(TextFunctions.changeCase("where the crawdads sing", to: .title) == "Where The Crawdads Sing")
        #expect(TextFunctions.changeCase("  hello WORLD. bye", to: .sentence) == "  Hello world. bye")
        #expect(TextFunctions.changeCase("book title-2", to: .camel) == "bookTitle2")
        #expect(TextFunctions.changeCase("bookTitle and Author", to: .snake) == "book_title_and_author")
        #expect(TextFunctions.changeCase("Book Title", to: .kebab) == "book-title")
    }

    @Test func trims() {
        #expect(TextFunctions.trim("  hi \n\t") == "hi")
        #expect(TextFunctions.trim("--hi-there--", characters: "-") == "hi-there")
    }

    @Test func splits() throws {
        #expect(try TextFunctions.split("a\nb\r\n\nc\n", by: .newlines) == ["a", "b", "", "c"])
        #expect(try TextFunctions.split("a\nb\r\n\nc\n", by: .newlines, omittingEmpty: true) == ["a", "b", "c"])
        #expect(try TextFunctions.split(" a  b\tc\n", by: .spaces) == ["a", "b", "c"])
        #expect(try TextFunctions.split("a,b,,c", by: .text(",")) == ["a", "b", "", "c"])
        #expect(try TextFunctions.split("a1b22c", by: .regex("[0-9]+")) == ["a", "b", "c"])
        #expect(try TextFunctions.split("", by: .newlines) == [])
    }

    @Test func anEmptySeparatorIsAnError() {
        #expect(
            throws: ValueFunctionError.invalidArgument(argument: "separator", reason: "an empty separator splits nothing; give the text to split at")
        ) {
            try TextFunctions.split("abc", by: .text(""))
        }
    }

    @Test func joinsDisplayText() {
        #expect(TextFunctions.join([.string("a"), .int(2), .double(2.5)], separator: ", ") == "a, 2, 2.5")
    }

    @Test func replacesIgnoringCase() throws {
        #expect(try TextFunctions.replace("Cats and CATS", "cats", with: "dogs", ignoringCase: true) == "dogs and dogs")
        #expect(try TextFunctions.replace("Cats and CATS", "cats", with: "dogs") == "Cats and CATS")
    }

    @Test func searches() {
        #expect(TextFunctions.contains("Hello", "ELL", ignoringCase: true))
        #expect(!TextFunctions.contains("Hello", "ELL"))
        #expect(TextFunctions.startsWith("Hello", "he", ignoringCase: true))
        #expect(TextFunctions.endsWith("Hello", "LO", ignoringCase: true))
        #expect(!TextFunctions.endsWith("Hello", "He"))
        #expect(TextFunctions.length("café") == 4)
    }

    @Test func formatsTemplates() throws {
        #expect(try TextFunctions.format("{0} by {1}", ["Emma", "Jane Austen"]) == "Emma by Jane Austen")
        #expect(try TextFunctions.format("{} and {} {{x}}", ["a", "b"]) == "a and b {x}")
        #expect(throws: ValueFunctionError.self) { try TextFunctions.format("{2}", ["a"]) }
    }
}

@Suite struct RegexFunctionsTests {
    @Test func matchesWithGroups() throws {
        let matches = try RegexFunctions.matches(of: #"(?<user>\w+)@(\w+)"#, in: "ann@home, bob@work")
        #expect(matches.count == 2)
        #expect(matches[0] == .dictionary(["text": "ann@home", "groups": ["ann", "home"], "named": ["user": "ann"]]))
        #expect(matches[1].member("text") == .string("bob@work"))
    }

    @Test func matchesIgnoringCase() throws {
        #expect(try RegexFunctions.matches(of: "cat", in: "Cat CAT dog", ignoringCase: true).count == 2)
        #expect(try RegexFunctions.matches(of: "cat", in: "Cat CAT dog").isEmpty)
    }

    @Test func replacesWithGroupReferences() throws {
        #expect(try RegexFunctions.replace(in: "2024-05-01", pattern: #"(\d+)-(\d+)-(\d+)"#, with: "$3/$2/$1") == "01/05/2024")
        #expect(try RegexFunctions.replace(in: "ann@home", pattern: #"(?<user>\w+)@"#, with: "${user} at ") == "ann at home")
        #expect(try RegexFunctions.replace(in: "a1", pattern: #"\d"#, with: #"\$$0"#) == "a$1")
        #expect(try RegexFunctions.replace(in: "Hello hello", pattern: "hello", with: "bye", ignoringCase: true) == "bye bye")
    }

    @Test func aBadPatternSaysWhy() throws {
        let problem = try #require(RegexFunctions.problem(in: "(unclosed"))
        #expect(!problem.isEmpty)
        #expect(RegexFunctions.problem(in: #"\d+"#) == nil)
        #expect {
            try RegexFunctions.matches(of: "(unclosed", in: "x")
        } throws: { error in
            guard case .invalidRegex(let argument, let pattern, _) = error as? ValueFunctionError else { return false }
            return argument == "pattern" && pattern == "(unclosed" && "\(error)".hasPrefix("invalid regular expression '(unclosed' in 'pattern': ")
        }
    }

    @Test func aMissingGroupInTheReplacementIsAnError() {
        #expect(throws: ValueFunctionError.self) { try RegexFunctions.replace(in: "a", pattern: "(a)", with: "$5") }
    }
}
