import Foundation
import ShortcutsSystemTestSupport
import Testing

/// `shortcuts validate` on several files checks them as one folder's: a webhook name may run
/// only one workflow, so a later file (by path) that takes an earlier one's name is an error.
@Suite("Validating webhooks across files", .endToEnd)
struct ValidateWebhooksTests {
    static let hook = """
        name: NAME
        automation:
          webhook: orders
        steps:
          - show: "NAME"
        """

    @Test("A webhook name two files take is an error in the later one, located and explained")
    func duplicateNameAcrossFiles() async throws {
        let shortcuts = try ShortcutsBinary()
        let root = try TemporaryFolder.make(prefix: "shortcuts-validate-webhooks")
        defer { try? FileManager.default.removeItem(at: root) }
        try TemporaryFolder.write(
            [
                "a-orders.yaml": Self.hook.replacingOccurrences(of: "NAME", with: "First"),
                "b-orders.yaml": Self.hook.replacingOccurrences(of: "NAME", with: "Second"),
                "c-other.yaml": Self.hook.replacingOccurrences(of: "NAME", with: "Other")
                    .replacingOccurrences(of: "orders", with: "other")
            ], in: root)
        let first = root.appendingPathComponent("a-orders.yaml").path
        let second = root.appendingPathComponent("b-orders.yaml").path
        let other = root.appendingPathComponent("c-other.yaml").path

        // Given in any order, the later path is the one in error, as the daemon reads a folder.
        let result = try await shortcuts.run(["validate", second, other, first])
        #expect(result.status == 1)
        #expect(result.output.contains("\(first): valid") && result.output.contains("\(other): valid"), "\(result.output)")
        #expect(!result.output.contains("\(second): valid"))
        #expect(result.error.contains("\(second):3:12: error: webhook 'orders' is already the webhook of a-orders.yaml (line 3)"), "\(result.error)")
        #expect(result.error.contains("    3 |   webhook: orders\n      |            ^~~~~~"), "\(result.error)")
        #expect(result.error.contains("help: a webhook's name is unique in its folder, since /hooks/orders runs one workflow: rename one of them"))

        let json = try await shortcuts.run(["validate", "--json", first, second])
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let files = try #require(document["files"] as? [[String: Any]])
        #expect(files.map { $0["valid"] as? Bool } == [true, false])
        let diagnostic = try #require((files[1]["diagnostics"] as? [[String: Any]])?.first)
        #expect(diagnostic["line"] as? Int == 3 && diagnostic["column"] as? Int == 12)

        // One file alone, or the same file given twice, has no one to clash with.
        #expect(try await shortcuts.run(["validate", second]).status == 0)
        #expect(try await shortcuts.run(["validate", first, "\(root.path)/./a-orders.yaml"]).status == 0)
    }
}
