import Foundation
import IntentKit
import Testing
import ValueFunctions

@Suite struct DateFunctionsTests {
    let paris = TimeZone(identifier: "Europe/Paris")!
    let utc = TimeZone(identifier: "UTC")!

    func date(_ text: String) -> Date { DateText.parse(text)! }

    @Test func addsCalendarUnitsAcrossDaylightSaving() throws {
        // Paris moves its clocks forward on 2024-03-31 at 02:00.
        let before = date("2024-03-30T09:00:00+01:00")
        let dayLater = try DateFunctions.add(1, .day, to: before, in: paris)
        #expect(dayLater == date("2024-03-31T09:00:00+02:00"))
        #expect(try DateFunctions.add(24, .hour, to: before, in: paris) == date("2024-03-31T10:00:00+02:00"))
        #expect(try DateFunctions.add(1, .month, to: date("2024-01-31T12:00:00Z"), in: utc) == date("2024-02-29T12:00:00Z"))
        #expect(try DateFunctions.add(-2, .week, to: date("2024-05-15"), in: utc) == date("2024-05-01"))
        #expect(try DateFunctions.add(1, .year, to: date("2024-05-15"), in: utc) == date("2025-05-15"))
        #expect(try DateFunctions.add(90, .second, to: date("2024-05-15"), in: utc) == date("2024-05-15T00:01:30Z"))
    }

    @Test func measuresDifferencesInWholeUnits() throws {
        let start = date("2024-01-31T10:00:00Z")
        #expect(try DateFunctions.difference(from: start, to: date("2024-02-03T09:00:00Z"), in: .day, timeZone: utc) == 2)
        #expect(try DateFunctions.difference(from: start, to: date("2024-02-03T09:00:00Z"), in: .hour, timeZone: utc) == 71)
        #expect(try DateFunctions.difference(from: date("2024-02-03T09:00:00Z"), to: start, in: .day, timeZone: utc) == -2)
        #expect(try DateFunctions.difference(from: start, to: date("2025-01-31T10:00:00Z"), in: .month, timeZone: utc) == 12)
        #expect(try DateFunctions.difference(from: start, to: date("2025-01-31T10:00:00Z"), in: .year, timeZone: utc) == 1)
        #expect(try DateFunctions.difference(from: start, to: start.addingTimeInterval(150), in: .minute, timeZone: utc) == 2)
    }

    @Test func aDifferenceBeyondAWholeNumberIsAnErrorNotACrash() throws {
        let start = date("2024-01-31T10:00:00Z")
        let farAway = try DateFunctions.add(Int.max, .hour, to: start, in: utc)
        #expect(throws: ValueFunctionError.self) { try DateFunctions.difference(from: start, to: farAway, in: .second, timeZone: utc) }
        let nearer = try DateFunctions.add(1_000_000_000_000, .second, to: start, in: utc)
        #expect(try DateFunctions.difference(from: start, to: nearer, in: .second, timeZone: utc) == 1_000_000_000_000)
    }

    @Test func formatsInStylesPatternsZonesAndLocales() throws {
        let moment = date("2024-05-01T08:30:00Z")
        #expect(try DateFunctions.format(moment, style: .iso8601, timeZone: utc) == "2024-05-01T08:30:00Z")
        #expect(try DateFunctions.format(moment, style: .iso8601, timeZone: paris) == "2024-05-01T10:30:00+02:00")
        #expect(try DateFunctions.format(moment, style: .pattern("yyyy-MM-dd HH:mm"), timeZone: paris) == "2024-05-01 10:30")
        let english = Locale(identifier: "en_US")
        #expect(try DateFunctions.format(moment, style: .pattern("EEEE d MMMM"), timeZone: utc, locale: english) == "Wednesday 1 May")
        #expect(try DateFunctions.format(moment, style: .pattern("EEEE"), timeZone: utc, locale: Locale(identifier: "fr_FR")) == "mercredi")
        #expect(try DateFunctions.format(moment, style: .long(time: false), timeZone: utc, locale: english) == "May 1, 2024")
        #expect(try DateFunctions.format(moment, style: .short(time: false), timeZone: utc, locale: english) == "5/1/24")
        #expect(try DateFunctions.format(moment, style: .long(time: false), timeZone: utc, locale: Locale(identifier: "ja_JP")) == "2024年5月1日")
    }

    @Test func parsesISOAndPatterns() throws {
        #expect(try DateFunctions.parse("2024-05-01T10:30:00+02:00") == date("2024-05-01T08:30:00Z"))
        #expect(try DateFunctions.parse("2024-05-01", timeZone: paris) == date("2024-04-30T22:00:00Z"))
        #expect(try DateFunctions.parse("2024-05-01 10:30", timeZone: utc) == date("2024-05-01T10:30:00Z"))
        #expect(try DateFunctions.parse("01/05/2024", pattern: "dd/MM/yyyy", timeZone: utc) == date("2024-05-01"))
        #expect(
            try DateFunctions.parse("1 mai 2024", pattern: "d MMMM yyyy", timeZone: utc, locale: Locale(identifier: "fr_FR")) == date("2024-05-01"))
    }

    @Test func textThatIsNoDateSaysTheFormExpected() {
        #expect(throws: ValueFunctionError.invalidDate(text: "31/02/2024", expected: "'dd/MM/yyyy'")) {
            try DateFunctions.parse("31/02/2024", pattern: "dd/MM/yyyy", timeZone: utc)
        }
        #expect(throws: ValueFunctionError.self) { try DateFunctions.parse("next tuesday") }
    }

    @Test func readsTimeZonesLocalesAndUnits() throws {
        #expect(try DateFunctions.timeZone("Asia/Tokyo").identifier == "Asia/Tokyo")
        #expect(try DateFunctions.timeZone("+05:30").secondsFromGMT() == 19_800)
        #expect {
            try DateFunctions.timeZone("Mars/Olympus")
        } throws: { error in
            "\(error)".hasPrefix("invalid 'timeZone': 'Mars/Olympus' is not a time zone")
        }
        #expect(throws: ValueFunctionError.self) { try DateFunctions.locale("zz_ZZ") }
        #expect(try DateFunctions.Unit(named: "Days") == .day)
        #expect(throws: ValueFunctionError.self) { try DateFunctions.Unit(named: "fortnight") }
    }
}

extension DateFunctionsTests {
    @Test func patternsWithReservedLettersOrOpenQuotesAreRefused() throws {
        #expect(DateFunctions.patternProblem(in: "yyyy-MM-dd HH:mm:ss.SSS ZZZZZ") == nil)
        #expect(DateFunctions.patternProblem(in: "EEEE d MMMM 'at' h a, 'o''clock'") == nil)
        #expect(DateFunctions.patternProblem(in: "d/M/yy — 日付") == nil)
        #expect(DateFunctions.patternProblem(in: "yyyy-MM-ddTHH:mm")?.hasPrefix("'T' is not a date pattern letter") == true)
        #expect(
            DateFunctions.patternProblem(in: "HH 'h")
                == "a quote is not closed; write literal text between two single quotes, and '' for a quote itself")
        #expect(DateFunctions.patternProblem(in: "") == "the pattern is empty; write one such as yyyy-MM-dd")
        #expect(throws: ValueFunctionError.self) {
            try DateFunctions.format(date("2024-05-01T10:00:00Z"), style: .pattern("yyyy-MM-ddTHH"), timeZone: utc)
        }
        #expect(throws: ValueFunctionError.self) { try DateFunctions.parse("2024", pattern: "yyyy 'y", timeZone: utc) }
    }
}
