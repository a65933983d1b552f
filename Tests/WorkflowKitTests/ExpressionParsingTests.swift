import Testing

@testable import WorkflowKit

@Suite("Expression parsing")
struct ExpressionParsingTests {
    /// Text parsed as if written at line 7, column 10 of `e.yaml`.
    func parse(_ text: String) throws(DiagnosticError) -> Template {
        try Template(parsing: text, at: Location(file: "e.yaml", line: 7, column: 10))
    }

    func errors(_ text: String) -> [String] {
        do {
            _ = try parse(text)
            return []
        } catch {
            return error.diagnostics.map(summary)
        }
    }

    func at(_ column: Int, _ length: Int) -> Location {
        Location(file: "e.yaml", line: 7, column: column, length: length)
    }

    @Test func singleVariable() throws {
        let expression = try #require(try parse("${name}").singleExpression)
        #expect(expression.variable == Located("name", at: at(12, 4)))
        #expect(expression.components.isEmpty)
        #expect(expression.location == at(10, 7))
        #expect(expression.description == "${name}")
    }

    @Test func propertyPath() throws {
        let expression = try #require(try parse("${book.author.name}").singleExpression)
        #expect(expression.variable.value == "book")
        #expect(
            expression.components == [
                .property(Located("author", at: at(17, 6))),
                .property(Located("name", at: at(24, 4)))
            ])
        #expect(expression.location == at(10, 19))
    }

    @Test func indexesAndCount() throws {
        let expression = try #require(try parse("${recent[0].authors[12].count}").singleExpression)
        #expect(
            expression.components == [
                .index(Located(0, at: at(19, 1))),
                .property(Located("authors", at: at(22, 7))),
                .index(Located(12, at: at(30, 2))),
                .property(Located("count", at: at(34, 5)))
            ])
        #expect(expression.description == "${recent[0].authors[12].count}")
    }

    @Test func builtInNames() throws {
        for name in ["input.x", "previous", "now", "index"] {
            let expression = try #require(try parse("${\(name)}").singleExpression)
            #expect(expression.description == "${\(name)}")
        }
    }

    @Test func spacesAroundThePath() throws {
        let expression = try #require(try parse("${ a[ 1 ] }").singleExpression)
        #expect(expression.variable == Located("a", at: at(13, 1)))
        #expect(expression.components == [.index(Located(1, at: at(16, 1)))])
        #expect(expression.description == "${a[1]}")
    }

    @Test func interpolationSegmentsAndColumns() throws {
        let template = try parse("Added ${book} (${book.datePublished})")
        #expect(template.singleExpression == nil)
        #expect(template.literalText == nil)
        guard template.segments.count == 5,
            case .text(let first) = template.segments[0],
            case .expression(let book) = template.segments[1],
            case .text(let middle) = template.segments[2],
            case .expression(let published) = template.segments[3],
            case .text(let last) = template.segments[4]
        else {
            Issue.record("unexpected segments \(template.segments)")
            return
        }
        #expect([first, middle, last] == ["Added ", " (", ")"])
        #expect(book.location == at(16, 7))
        #expect(published.location == at(25, 21))
        #expect(published.components.map(\.propertyName) == ["datePublished"])
    }

    @Test func adjacentExpressions() throws {
        let template = try parse("${a}${b}")
        #expect(template.segments.count == 2)
        guard case .expression(let second) = template.segments[1] else {
            Issue.record("expected an expression")
            return
        }
        #expect(second.location == at(14, 4))
    }

    @Test func escapes() throws {
        #expect(try parse("$${name}").literalText == "${name}")
        #expect(try parse("cost: $5, $ {x}, {y}").literalText == "cost: $5, $ {x}, {y}")
        let mixed = try parse("$${a} ${b}")
        #expect(mixed.segments.first == .text("${a} "))
        guard case .expression(let b) = mixed.segments.last else {
            Issue.record("expected an expression last")
            return
        }
        #expect(b.location == at(16, 4))
    }

    @Test func plainTextHasOneSegment() throws {
        let template = try parse("Nothing found")
        #expect(template.segments == [.text("Nothing found")])
        #expect(template.literalText == "Nothing found")
        #expect(try parse("").segments.isEmpty)
    }

    @Test func syntaxErrors() {
        #expect(errors("${name") == ["7:10: unterminated expression: '${' has no matching '}'"])
        #expect(errors("${}") == ["7:10: empty expression '${}'"])
        #expect(errors("${  }") == ["7:10: empty expression '${  }'"])
        #expect(errors("${a..b}") == ["7:14: invalid expression '${a..b}': expected a property name after '.'"])
        #expect(errors("${a.}") == ["7:14: invalid expression '${a.}': expected a property name after '.'"])
        #expect(errors("${a[]}") == ["7:14: invalid expression '${a[]}': expected a non-negative integer index"])
        #expect(errors("${a[0}") == ["7:15: invalid expression '${a[0}': expected ']'"])
        #expect(errors("${1a}") == ["7:12: invalid expression '${1a}': expected a variable name"])
        #expect(errors("${a b}") == ["7:14: invalid expression '${a b}': unexpected 'b'"])
        #expect(errors("${a-}") == ["7:14: invalid expression '${a-}': expected a value"])
        #expect(errors("${a[99999999999999999999]}") == ["7:14: invalid expression '${a[99999999999999999999]}': index is too large"])
    }

    @Test func everyErrorOfATextIsReported() {
        #expect(
            errors("${a..b} and ${} then ${c") == [
                "7:14: invalid expression '${a..b}': expected a property name after '.'",
                "7:22: empty expression '${}'",
                "7:31: unterminated expression: '${' has no matching '}'"
            ])
    }

    @Test func unicodeNames() throws {
        let expression = try #require(try parse("${livre.année}").singleExpression)
        #expect(expression.components.map(\.propertyName) == ["année"])
    }
}
