import IntentKit
import Testing

@Suite struct MathIntentTests {
    @Test func calculates() async throws {
        #expect(try await BuiltInIntents.perform("Math.Calculate", ["first": .int(7), "second": .int(3)]) == .double(10))
        #expect(
            try await BuiltInIntents.perform("Math.Calculate", ["first": .int(7), "operation": .string("divide"), "second": .int(2)]) == .double(3.5))
        #expect(
            try await BuiltInIntents.perform("Math.Calculate", ["first": .string("2"), "operation": .string("power"), "second": .int(8)])
                == .double(256))
    }

    @Test func divisionByZeroFailsTheStep() async {
        let message = await BuiltInIntents.failure("Math.Calculate", ["first": .int(1), "operation": .string("divide"), "second": .int(0)])
        #expect(message == "Math.Calculate failed: cannot divide 1 by zero")
    }

    @Test func aLiteralZeroDivisorIsAValidationError() throws {
        let yaml = """
            steps:
              - perform: Math.Calculate
                with: { first: 1, operation: divide, second: 0 }
              - perform: Math.Calculate
                with: { first: 1, operation: multiply, second: 0 }
            """
        #expect(try BuiltInIntents.diagnostics(of: yaml) == ["3:50: cannot divide by zero"])
    }

    @Test func rounds() async throws {
        #expect(
            try await BuiltInIntents.perform("Math.Round", ["number": .double(2.345), "places": .int(2), "mode": .string("down")]) == .double(2.34))
        #expect(try await BuiltInIntents.perform("Math.Round", ["number": .double(2.5)]) == .double(3))
        #expect(try await BuiltInIntents.perform("Math.Round", ["number": .double(2.01), "mode": .string("up")]) == .double(3))
        let message = await BuiltInIntents.failure("Math.Round", ["number": .double(1), "places": .int(40)])
        #expect(message == "Math.Round failed: invalid 'places': 40 is outside -15…15")
    }

    @Test func measuresLists() async throws {
        let numbers = IntentValue.list([.int(2), .int(4), .int(4), .int(4), .int(5), .int(5), .int(7), .string("9")])
        #expect(try await BuiltInIntents.perform("Math.Statistics", ["numbers": numbers]) == .double(40))
        #expect(try await BuiltInIntents.perform("Math.Statistics", ["numbers": numbers, "measure": .string("average")]) == .double(5))
        #expect(try await BuiltInIntents.perform("Math.Statistics", ["numbers": numbers, "measure": .string("median")]) == .double(4.5))
        #expect(try await BuiltInIntents.perform("Math.Statistics", ["numbers": numbers, "measure": .string("standardDeviation")]) == .double(2))
        let empty = await BuiltInIntents.failure("Math.Statistics", ["numbers": .list([]), "measure": .string("maximum")])
        #expect(empty == "Math.Statistics failed: the maximum of an empty list is undefined ('numbers' has no elements)")
    }

    @Test func picksRandomNumbersWithinTheBounds() async throws {
        for _ in 0..<50 {
            let value = try await BuiltInIntents.perform("Math.RandomNumber", ["minimum": .int(1), "maximum": .int(3)])
            #expect([.int(1), .int(2), .int(3)].contains(value))
        }
        let message = await BuiltInIntents.failure("Math.RandomNumber", ["minimum": .int(5), "maximum": .int(1)])
        #expect(message == "Math.RandomNumber failed: invalid 'minimum': 5 is above the maximum 1")
    }
}
