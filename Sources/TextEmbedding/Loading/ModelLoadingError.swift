/// Why a model folder could not be loaded: which file, what is wrong with it, and how to fix it.
///
/// ```
/// /home/me/.shortcuts/models/all-MiniLM-L6-v2/model.safetensors: error: the file is truncated:
///   tensor 'pooler.dense.weight' ends at byte 90868376 but the file has 4096 bytes
/// help: install the model again: shortcuts models install all-MiniLM-L6-v2
/// ```
public struct ModelLoadingError: Error, CustomStringConvertible, Sendable {
    /// The path of the file that is missing or wrong (or of the model folder).
    public var file: String

    /// What is wrong, in one sentence.
    public var problem: String

    /// How to fix it.
    public var help: String

    /// Creates an error about a file.
    ///
    /// - Parameters:
    ///   - file: The file's path.
    ///   - problem: What is wrong.
    ///   - help: How to fix it.
    public init(file: String, problem: String, help: String) {
        self.file = file
        self.problem = problem
        self.help = help
    }

    public var description: String {
        "\(file): error: \(problem)\nhelp: \(help)"
    }
}

extension ModelLoadingError {
    /// The advice for a file that was damaged or replaced after installation.
    static let reinstall = "install the model again (shortcuts models install NAME), or copy the file again from where it came from"

    /// A file of the model folder is missing.
    static func missing(_ file: String) -> ModelLoadingError {
        ModelLoadingError(
            file: file, problem: "the file does not exist",
            help: "a model folder holds config.json, tokenizer.json and model.safetensors; \(reinstall)")
    }

    /// A file exists but cannot be read.
    static func unreadable(_ file: String, _ reason: String) -> ModelLoadingError {
        ModelLoadingError(file: file, problem: "the file cannot be read: \(reason)", help: "check its permissions, or \(reinstall)")
    }

    /// A file's content is not what the loader expects.
    static func invalid(_ file: String, _ problem: String, help: String = reinstall) -> ModelLoadingError {
        ModelLoadingError(file: file, problem: problem, help: help)
    }
}
