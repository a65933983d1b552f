import IntentKit
import Testing
import ValueFunctions

@Suite struct MathFunctionsTests {
    @Test(arguments: [
        (7.0, MathFunctions.Operation.add, 3.0, 10.0), (7, .subtract, 3, 4), (7, .multiply, 3, 21), (7, .divide, 2, 3.5),
        (7, .modulo, 3, 1), (-7, .modulo, 3, -1), (2, .power, 10, 1024), (2, .minimum, 3, 2), (2, .maximum, 3, 3)
    ])
    func calculates(first: Double, operation: MathFunctions.Operation, second: Double, result: Double) throws {
        #expect(try MathFunctions.calculate(first, operation, second) == result)
    }

    @Test func divisionByZeroIsAnError() {
        #expect(throws: ValueFunctionError.divisionByZero(operation: "divide 1")) { try MathFunctions.calculate(1, .divide, 0) }
        #expect(throws: ValueFunctionError.divisionByZero(operation: "take the remainder of 5")) { try MathFunctions.calculate(5, .modulo, 0) }
        #expect("\(ValueFunctionError.divisionByZero(operation: "divide 1"))" == "cannot divide 1 by zero")
        #expect(throws: ValueFunctionError.self) { try MathFunctions.calculate(-8, .power, 0.5) }
    }

    @Test func rounds() {
        #expect(MathFunctions.round(2.345, places: 2, rule: .down) == 2.34)
        #expect(MathFunctions.round(2.341, places: 2, rule: .up) == 2.35)
        #expect(MathFunctions.round(1.005, places: 2) == 1.01)
        #expect(MathFunctions.round(2.5) == 3)
        #expect(MathFunctions.round(-2.5) == -3)
        #expect(MathFunctions.round(-2.1, rule: .down) == -3)
        #expect(MathFunctions.round(1234.5, places: -2) == 1200)
    }

    @Test func randomNumbersStayWithinTheBounds() throws {
        for _ in 0..<200 { #expect((1...6).contains(try MathFunctions.random(minimum: 1, maximum: 6))) }
        #expect(try MathFunctions.random(minimum: 4, maximum: 4) == 4)
        #expect(throws: ValueFunctionError.invalidArgument(argument: "minimum", reason: "7 is above the maximum 3")) {
            try MathFunctions.random(minimum: 7, maximum: 3)
        }
    }
}

@Suite struct StatisticsFunctionsTests {
    @Test func measures() throws {
        let numbers: [Double] = [2, 4, 4, 4, 5, 5, 7, 9]
        #expect(try StatisticsFunctions.measure(.sum, of: numbers) == 40)
        #expect(try StatisticsFunctions.measure(.average, of: numbers) == 5)
        #expect(try StatisticsFunctions.measure(.minimum, of: numbers) == 2)
        #expect(try StatisticsFunctions.measure(.maximum, of: numbers) == 9)
        #expect(try StatisticsFunctions.measure(.median, of: numbers) == 4.5)
        #expect(try StatisticsFunctions.measure(.median, of: [3, 1, 2]) == 2)
        #expect(try StatisticsFunctions.measure(.standardDeviation, of: numbers) == 2)
        #expect(try StatisticsFunctions.measure(.count, of: numbers) == 8)
    }

    @Test func anEmptyListHasASumButNoAverage() throws {
        #expect(try StatisticsFunctions.measure(.sum, of: []) == 0)
        #expect(throws: ValueFunctionError.emptyList(argument: "numbers", function: "average")) {
            try StatisticsFunctions.measure(.average, of: [])
        }
    }

    @Test func readsNumbersFromValues() throws {
        #expect(try StatisticsFunctions.numbers(from: [.int(1), .double(2.5), " 3 "]) == [1, 2.5, 3])
        #expect {
            try StatisticsFunctions.numbers(from: [.int(1), "two"])
        } throws: { error in
            "\(error)" == "invalid 'numbers': element 1 is String 'two', not a number"
        }
    }
}
