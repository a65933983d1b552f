import Foundation

/// Paths in the package: its root, and the fixtures beside the end-to-end tests.
///
/// ```swift
/// let file = PackagePaths.fixture("needs-answer.yaml")   // Tests/EndToEndTests/Fixtures/needs-answer.yaml
/// ```
public enum PackagePaths {
    /// The package's folder; the binary runs there, so workflow paths in tests are relative to it.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A fixture's path relative to the package's folder, as tests pass it to the binary.
    ///
    /// - Parameter name: The fixture's path below `Tests/EndToEndTests/Fixtures`.
    /// - Returns: `Tests/EndToEndTests/Fixtures/<name>`.
    public static func fixture(_ name: String) -> String {
        "Tests/EndToEndTests/Fixtures/" + name
    }

    /// A file of the package, by its path from the package's folder.
    ///
    /// - Parameter path: Such as `Workflows/add-and-open.yaml`.
    /// - Returns: The file's URL.
    public static func file(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }
}
