import Testing

@testable import Cron

/// Every rejected expression reports its field, the 1-based column of the
/// offending text, and an exact, actionable message.
@Suite("Parse errors")
struct CronErrorTests {
    private func failure(_ text: String) -> CronError? {
        do {
            _ = try CronExpression(text)
            return nil
        } catch {
            return error
        }
    }

    private func check(_ text: String, _ description: String, column: Int, field: Int?) {
        guard let error = failure(text) else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(error.description == description, "for \(text)")
        #expect(error.column == column, "for \(text)")
        #expect(error.fieldIndex == field, "for \(text)")
    }

    @Test("The error carries field, column, message and field name")
    func errorShape() throws {
        let error = try #require(failure("0 0 32 * *"))
        #expect(error.description == "field 3 (day of month): 32 is out of range 1–31")
        #expect(error.message == "32 is out of range 1–31")
        #expect(error.fieldIndex == 3)
        #expect(error.fieldName == "day of month")
        #expect(error.column == 5)
        #expect(error == failure("0 0 32 * *"))
        #expect(error != failure("0 0 33 * *"))
    }

    @Test("Field numbers follow the written position, so seconds shift them")
    func fieldNumbersWithSeconds() {
        check("0 0 0 32 * *", "field 4 (day of month): 32 is out of range 1–31", column: 7, field: 4)
    }

    @Test(
        "Values out of range",
        arguments: [
            ("60 * * * *", "field 1 (minute): 60 is out of range 0–59", 1),
            ("0 24 * * *", "field 2 (hour): 24 is out of range 0–23", 3),
            ("0 0 32 * *", "field 3 (day of month): 32 is out of range 1–31", 5),
            ("0 0 0 * *", "field 3 (day of month): 0 is out of range 1–31", 5),
            ("0 0 * 13 *", "field 4 (month): 13 is out of range 1–12", 7),
            ("0 0 * * 8", "field 5 (day of week): 8 is out of range 0–7", 9),
            ("0 0 1-32 * *", "field 3 (day of month): 32 is out of range 1–31", 7),
            ("0 0 32W * *", "field 3 (day of month): 32 is out of range 1–31", 5),
            ("0 0 * * 99999999999999999999", "field 5 (day of week): 99999999999999999999 is out of range 0–7", 9)
        ])
    func outOfRange(text: String, description: String, column: Int) {
        let field = Int(description.dropFirst("field ".count).prefix(1))
        check(text, description, column: column, field: field)
    }

    @Test("Wrong number of fields says how many were found and what is expected")
    func fieldCount() {
        check(
            "0 0 * *",
            "expected 5 fields (minute hour day-of-month month day-of-week) or 6 with a leading seconds field, but found 4",
            column: 9, field: nil)
        check(
            "0 0 * * * * *",
            "expected 5 fields (minute hour day-of-month month day-of-week) or 6 with a leading seconds field, but found 7",
            column: 13, field: nil)
    }

    @Test("Empty expressions", arguments: ["", "   "])
    func empty(text: String) {
        check(
            text,
            "the expression is empty; expected 5 fields (minute hour day-of-month month day-of-week), "
                + "6 with a leading seconds field, or a macro such as @daily",
            column: 1, field: nil)
    }

    @Test(
        "Unknown names suggest the nearest valid name",
        arguments: [
            ("0 0 * * FRY", "field 5 (day of week): unknown name 'FRY'; did you mean FRI?", 9),
            ("0 0 * * tuu", "field 5 (day of week): unknown name 'tuu'; did you mean TUE?", 9),
            ("0 0 * FOO *", "field 4 (month): unknown name 'FOO'; did you mean FEB?", 7),
            ("0 0 * JANUARY *", "field 4 (month): unknown name 'JANUARY'; did you mean JAN?", 7),
            ("0 0 * * MONDAY", "field 5 (day of week): unknown name 'MONDAY'; did you mean MON?", 9),
            ("0 0 * * MON-FRIDAY", "field 5 (day of week): unknown name 'FRIDAY'; did you mean FRI?", 13)
        ])
    func unknownNames(text: String, description: String, column: Int) {
        check(text, description, column: column, field: Int(description.dropFirst("field ".count).prefix(1)))
    }

    @Test("Names from the other named field, and text where a number belongs")
    func wrongKindOfValue() {
        check(
            "0 0 * * JAN", "field 5 (day of week): JAN is a month name; expected a number 0–7 or a name SUN–SAT",
            column: 9, field: 5)
        check(
            "0 0 * MON *", "field 4 (month): MON is a day-of-week name; expected a number 1–12 or a name JAN–DEC",
            column: 7, field: 4)
        check("MON * * * *", "field 1 (minute): MON is a day-of-week name; expected a number 0–59", column: 1, field: 1)
        check("abc * * * *", "field 1 (minute): 'abc' is not valid here; expected a number 0–59", column: 1, field: 1)
    }

    @Test("Unknown macros suggest the nearest one")
    func macros() {
        check("@dayly", "unknown macro @dayly; did you mean @daily?", column: 1, field: nil)
        check("@hourli", "unknown macro @hourli; did you mean @hourly?", column: 1, field: nil)
        check("@rebot", "unknown macro @rebot; did you mean @reboot?", column: 1, field: nil)
        check("@daily 5", "@daily must be the whole expression; remove the text after it", column: 8, field: nil)
    }

    @Test("Steps of 0, beyond the field, or not numbers")
    func steps() {
        check("*/0 * * * *", "field 1 (minute): step 0 is not allowed; use a step of 1 or more", column: 3, field: 1)
        check("0 0/0 * * *", "field 2 (hour): step 0 is not allowed; use a step of 1 or more", column: 5, field: 2)
        check(
            "0 0 1-10/0 * *", "field 3 (day of month): step 0 is not allowed; use a step of 1 or more",
            column: 10, field: 3)
        check("*/61 * * * *", "field 1 (minute): step 61 is too large; use a step of at most 60", column: 3, field: 1)
        check("0 0 * * */9", "field 5 (day of week): step 9 is too large; use a step of at most 8", column: 11, field: 5)
        check("*/x * * * *", "field 1 (minute): step 'x' is not a number", column: 3, field: 1)
        check("*/ * * * *", "field 1 (minute): expected a step number after '/'", column: 2, field: 1)
    }

    @Test(
        "Reversed ranges are rejected with a wrap-around suggestion",
        arguments: [
            ("5-1 * * * *", "field 1 (minute): range 5-1 is reversed; write the smaller value first, or use 5-59,0-1 to wrap around", 1),
            ("0 22-2 * * *", "field 2 (hour): range 22-2 is reversed; write the smaller value first, or use 22-23,0-2 to wrap around", 3),
            (
                "0 0 * NOV-FEB *", "field 4 (month): range NOV-FEB is reversed; write the smaller value first, or use NOV-DEC,JAN-FEB to wrap around",
                7
            ),
            (
                "0 0 * * FRI-MON",
                "field 5 (day of week): range FRI-MON is reversed; write the smaller value first, or use FRI-SAT,SUN-MON to wrap around", 9
            ),
            ("0 0 * * 5-1", "field 5 (day of week): range 5-1 is reversed; write the smaller value first, or use 5-6,0-1 to wrap around", 9),
            ("0 0 * * 7-2", "field 5 (day of week): range 7-2 is reversed; write the smaller value first, or use 0-2 to wrap around", 9),
            (
                "0 0 * * SAT-MON/2",
                "field 5 (day of week): range SAT-MON is reversed; write the smaller value first, or use SAT,SUN-MON to wrap around", 9
            )
        ])
    func reversedRanges(text: String, description: String, column: Int) {
        check(text, description, column: column, field: Int(description.dropFirst("field ".count).prefix(1)))
    }

    @Test("W outside day of month, or combined with a range or step")
    func nearestWeekdayMisuse() {
        check(
            "15W * * * *", "field 1 (minute): W (nearest weekday) is only allowed in the day-of-month field",
            column: 3, field: 1)
        check(
            "0 0 * * 15W", "field 5 (day of week): W (nearest weekday) is only allowed in the day-of-month field",
            column: 11, field: 5)
        check(
            "0 0 * LW *", "field 4 (month): W (nearest weekday) is only allowed in the day-of-month field",
            column: 8, field: 4)
        let single = "W needs a single day of month, such as 15W or LW; it cannot be combined with a range or step"
        check("0 0 1-15W * *", "field 3 (day of month): \(single)", column: 7, field: 3)
        check("0 0 15W-20 * *", "field 3 (day of month): \(single)", column: 8, field: 3)
        check("0 0 15W/2 * *", "field 3 (day of month): \(single)", column: 8, field: 3)
    }

    @Test("L outside the day fields, or malformed")
    func lastMisuse() {
        check(
            "L * * * *", "field 1 (minute): L (last) is only allowed in the day-of-month and day-of-week fields",
            column: 1, field: 1)
        check(
            "0 5L * * *", "field 2 (hour): L (last) is only allowed in the day-of-month and day-of-week fields",
            column: 4, field: 2)
        check(
            "0 0 * L *", "field 4 (month): L (last) is only allowed in the day-of-month and day-of-week fields",
            column: 7, field: 4)
        check(
            "0 0 * * L",
            "field 5 (day of week): L in the day-of-week field needs a weekday before it, such as 5L or FRIL for the last Friday",
            column: 9, field: 5)
        check(
            "0 0 * * 1-5L",
            "field 5 (day of week): L after a weekday needs a single weekday, such as 5L or FRIL; it cannot be combined with a range or step",
            column: 11, field: 5)
        check(
            "0 0 5L * *",
            "field 3 (day of month): '5L' is not valid here; expected a number 1–31, L, L-n, LW or a day followed by W",
            column: 5, field: 3)
        check("0 0 L-31 * *", "field 3 (day of month): offset 31 in L-31 is out of range 0–30", column: 7, field: 3)
        check("0 0 L- * *", "field 3 (day of month): expected a number of days after 'L-', such as L-3", column: 6, field: 3)
    }

    @Test("# outside day of week, or combined with a range or step")
    func nthMisuse() {
        let onlyDayOfWeek = "# (nth weekday of the month) is only allowed in the day-of-week field"
        check("0 0 1#2 * *", "field 3 (day of month): \(onlyDayOfWeek)", column: 6, field: 3)
        check("0 1#2 * * *", "field 2 (hour): \(onlyDayOfWeek)", column: 4, field: 2)
        let single = "# needs a single weekday, such as FRI#3; it cannot be combined with a range or step"
        check("0 0 * * 1-5#2", "field 5 (day of week): \(single)", column: 12, field: 5)
        check("0 0 * * 1#2-3", "field 5 (day of week): \(single)", column: 12, field: 5)
        check("0 0 * * 5#", "field 5 (day of week): expected an ordinal 1–5 after '#', such as FRI#3", column: 10, field: 5)
    }

    @Test("# ordinals outside 1–5", arguments: [("0 0 * * FRI#6", "6", 13), ("0 0 * * 5#0", "0", 11), ("0 0 * * MON#10", "10", 13)])
    func ordinals(text: String, ordinal: String, column: Int) {
        check(text, "field 5 (day of week): ordinal \(ordinal) is out of range 1–5", column: column, field: 5)
    }

    @Test("? only alone, and only in the day fields")
    func questionMarkMisuse() {
        check(
            "? * * * *",
            "field 1 (minute): ? (no specific value) is only allowed in the day-of-month and day-of-week fields",
            column: 1, field: 1)
        check(
            "0 0 * ? *",
            "field 4 (month): ? (no specific value) is only allowed in the day-of-month and day-of-week fields",
            column: 7, field: 4)
        check("0 0 1,? * *", "field 3 (day of month): ? must be the whole field", column: 7, field: 3)
        check("0 0 * * ?5", "field 5 (day of week): ? must be the whole field", column: 9, field: 5)
    }

    @Test("Malformed lists, ranges and characters")
    func malformed() {
        check("1,,2 * * * *", "field 1 (minute): empty list item; remove the extra comma", column: 3, field: 1)
        check("1, * * * *", "field 1 (minute): empty list item; remove the extra comma", column: 2, field: 1)
        check(",1 * * * *", "field 1 (minute): empty list item; remove the extra comma", column: 1, field: 1)
        check("1- * * * *", "field 1 (minute): range 1- is missing its end value", column: 2, field: 1)
        check("-5 * * * *", "field 1 (minute): expected a value before '-'", column: 1, field: 1)
        check("0 0 * * #3", "field 5 (day of week): expected a value before '#'", column: 9, field: 5)
        check("1% * * * *", "field 1 (minute): unexpected character '%'", column: 2, field: 1)
        check("1-5-7 * * * *", "field 1 (minute): unexpected character '-'", column: 4, field: 1)
        check("*-5 * * * *", "field 1 (minute): unexpected character '-'", column: 2, field: 1)
        check("0 0 * * * é", "field 6 (day of week): unexpected character 'é'", column: 11, field: 6)
    }

    @Test("Columns count characters, not bytes")
    func columnsCountCharacters() throws {
        // The non-breaking space is whitespace; "é" is one character.
        let error = try #require(failure("0\u{00A0}0 * * é"))
        #expect(error.column == 9)
    }
}
