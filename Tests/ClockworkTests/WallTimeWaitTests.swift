import Foundation
import Testing

/// The tests wait for events (a change in a folder, a process's end, a signal fired by the code
/// under test, a manual clock's sleeper), not for time to pass. A test that sleeps does so
/// because it cannot use a clock: what it checks needs real seconds to go by in a real process
/// (a daemon's missed due times after a SIGKILL, a lease running out on a PostgreSQL server, a
/// kill at a random moment). Each such sleep says why in a `// Wall time:` comment just above it,
/// and there are at most 20 tests that sleep.
@Suite("Tests that wait on wall time")
struct WallTimeWaitTests {
    /// What waits for time to pass.
    nonisolated(unsafe) static let sleeps = /Thread\.sleep|Task\.sleep|\busleep\(|nanosleep\(/

    /// A declaration of a function, with its indentation and name.
    nonisolated(unsafe) static let function =
        /^(?<indent> *)(?:@Test[^)]*\)?\s+)?(?:(?:public|private|fileprivate|static|mutating|nonisolated)\s+)*func\s+`?(?<name>\w+)/

    /// A type's declaration (or an extension), with its indentation: its functions are one level in.
    nonisolated(unsafe) static let type = /^(?<indent> *)(?:(?:public|private|fileprivate|final)\s+)*(?:struct|class|enum|extension|actor)\s/

    /// Every sleep in Tests, with the function it is in.
    struct Sleep {
        var location: String
        var function: String
        var explained: Bool
    }

    static func sleeps(in tests: URL) throws -> [Sleep] {
        var found: [Sleep] = []
        let enumerator = try #require(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
        for case let file as URL in enumerator where file.pathExtension == "swift" && file.lastPathComponent != "WallTimeWaitTests.swift" {
            let relative = String(file.path.dropFirst(tests.path.count + 1))
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var function = "(top level)"
            // How deep a type's functions are (a file's code may sit in an `#if` block); a function
            // declared deeper is local to one of them.
            var memberIndent = 4
            for (index, line) in lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if ["struct ", "class ", "enum ", "extension ", "actor "].contains(where: line.contains), let type = line.firstMatch(of: Self.type) {
                    memberIndent = type.indent.count + 4
                }
                if line.contains("func "), let declared = line.firstMatch(of: Self.function), declared.indent.count <= memberIndent {
                    function = String(declared.name)
                }
                // A sleep in code, not a comment or a string naming one.
                guard code.contains("sleep"), !code.hasPrefix("//"), let sleep = code.firstMatch(of: Self.sleeps),
                    code[..<sleep.range.lowerBound].last != "\""
                else { continue }
                let above = lines[max(0, index - 4)..<index].joined(separator: "\n")
                found.append(
                    Sleep(location: "Tests/\(relative):\(index + 1)", function: "\(relative):\(function)", explained: above.contains("// Wall time:"))
                )
            }
        }
        return found
    }

    @Test("every sleep in Tests says why it cannot use a clock, and at most 20 functions sleep")
    func sleepsAreFewAndExplained() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let found = try Self.sleeps(in: tests)
        let unexplained = found.filter { !$0.explained }.map(\.location)
        #expect(unexplained.isEmpty, "say why in a // Wall time: comment above each, or wait for an event:\n\(unexplained.joined(separator: "\n"))")
        let functions = Set(found.map(\.function)).sorted()
        #expect(functions.count <= 20, "\(functions.count) functions sleep:\n\(functions.joined(separator: "\n"))")
    }
}
