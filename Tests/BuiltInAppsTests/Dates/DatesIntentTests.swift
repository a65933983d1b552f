import Foundation
import IntentKit
import Testing

@Suite struct DatesIntentTests {
    func date(_ text: String) -> IntentValue { .date(DateText.parse(text)!) }

    @Test func adjustsInATimeZone() async throws {
        let adjusted = try await BuiltInIntents.perform(
            "Dates.Adjust",
            ["date": date("2024-03-30T09:00:00+01:00"), "amount": .int(1), "unit": .string("day"), "timeZone": .string("Europe/Paris")])
        #expect(adjusted == date("2024-03-31T09:00:00+02:00"))
        let earlier = try await BuiltInIntents.perform(
            "Dates.Adjust",
            ["date": .string("2024-05-15"), "operation": .string("subtract"), "amount": .int(2), "unit": .string("week"), "timeZone": .string("UTC")])
        #expect(earlier == date("2024-05-01"))
    }

    @Test func formatsInStylesAndPatterns() async throws {
        let moment = date("2024-05-01T08:30:00Z")
        #expect(
            try await BuiltInIntents.perform("Dates.Format", ["date": moment, "timeZone": .string("Asia/Tokyo")])
                == .string("2024-05-01T17:30:00+09:00"))
        #expect(
            try await BuiltInIntents.perform(
                "Dates.Format",
                ["date": moment, "style": .string("long"), "includeTime": .bool(false), "timeZone": .string("UTC"), "locale": .string("en_US")])
                == .string("May 1, 2024"))
        #expect(
            try await BuiltInIntents.perform(
                "Dates.Format", ["date": moment, "pattern": .string("EEEE HH:mm"), "timeZone": .string("UTC"), "locale": .string("en_US")])
                == .string("Wednesday 08:30"))
    }

    @Test func parsesWithAndWithoutAPattern() async throws {
        #expect(try await BuiltInIntents.perform("Dates.Parse", ["text": .string("2024-05-01T10:30:00+02:00")]) == date("2024-05-01T08:30:00Z"))
        #expect(
            try await BuiltInIntents.perform(
                "Dates.Parse", ["text": .string("01/05/2024"), "pattern": .string("dd/MM/yyyy"), "timeZone": .string("UTC")])
                == date("2024-05-01"))
        let message = await BuiltInIntents.failure("Dates.Parse", ["text": .string("31/02/2024"), "pattern": .string("dd/MM/yyyy")])
        #expect(message == "Dates.Parse failed: '31/02/2024' is not a date in the form 'dd/MM/yyyy'")
    }

    @Test func measuresTheTimeBetween() async throws {
        let days = try await BuiltInIntents.perform(
            "Dates.Difference", ["start": date("2024-01-31T10:00:00Z"), "end": date("2024-02-03T09:00:00Z"), "timeZone": .string("UTC")])
        #expect(days == .int(2))
        let hours = try await BuiltInIntents.perform(
            "Dates.Difference", ["start": date("2024-01-31T10:00:00Z"), "end": date("2024-02-03T09:00:00Z"), "unit": .string("hour")])
        #expect(hours == .int(71))
    }

    @Test func anUnknownTimeZoneIsAnErrorBeforeAndDuringTheRun() async throws {
        let message = await BuiltInIntents.failure("Dates.Format", ["date": date("2024-05-01"), "timeZone": .string("Mars/Olympus")])
        #expect(message?.hasPrefix("Dates.Format failed: invalid 'timeZone': 'Mars/Olympus' is not a time zone") == true)
        let yaml = """
            steps:
              - perform: Dates.Format
                with: { date: 2024-05-01, timeZone: Mars/Olympus, locale: zz_ZZ }
            """
        let diagnostics = try BuiltInIntents.diagnostics(of: yaml)
        #expect(diagnostics.count == 2)
        #expect(diagnostics.first?.hasPrefix("3:41: invalid 'timeZone': 'Mars/Olympus' is not a time zone") == true, "\(diagnostics)")
    }

    @Test func aLiteralPatternThatCannotBeUsedIsAValidationError() throws {
        let yaml = """
            steps:
              - perform: Dates.Parse
                with: { text: "2024-05-01 10:00", pattern: "yyyy-MM-ddTHH:mm" }
            """
        let diagnostics = try BuiltInIntents.diagnostics(of: yaml)
        #expect(
            diagnostics == [
                "3:48: invalid date pattern: 'T' is not a date pattern letter; write literal text between single quotes, as in yyyy-MM-dd'T'HH:mm"
            ])
    }
}
