import Foundation

@testable import WorkflowKit

/// The YAML fixture files beside the tests, and the package they belong to.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static let packageRoot =
        directory
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Fixtures that load without errors and validate against the schema.
    static let validNames = ["design-example", "every-step-kind", "minimal", "triggers"]
    /// Every fixture.
    static let allNames = validNames + ["five-mistakes"]

    static func url(_ name: String) -> URL {
        directory.appendingPathComponent(name + ".yaml")
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: url(name), encoding: .utf8)
    }
}

/// Loads text that must fail, and returns its diagnostics (none when it loaded).
func diagnostics(loading text: String, fileName: String = "test.yaml") -> [Diagnostic] {
    do {
        _ = try WorkflowLoader.load(text: text, fileName: fileName)
        return []
    } catch {
        return error.diagnostics
    }
}

/// `line:column: message` for comparing diagnostics compactly.
func summary(_ diagnostic: Diagnostic) -> String {
    "\(diagnostic.location.line):\(diagnostic.location.column): \(diagnostic.message)"
}

extension ValueNode {
    var expression: WorkflowExpression? {
        if case .expression(let expression) = self { return expression }
        return nil
    }

    var literal: ScalarLiteral? {
        if case .literal(let literal) = self { return literal }
        return nil
    }

    var template: Template? {
        if case .template(let template) = self { return template }
        return nil
    }
}

extension WorkflowExpression.Component {
    var propertyName: String? {
        if case .property(let name) = self { return name.value }
        return nil
    }
}

/// Swift Testing also has a `SourceLocation`; tests mean the workflow one.
typealias Location = WorkflowKit.SourceLocation
