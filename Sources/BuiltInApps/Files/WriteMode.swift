import IntentKit

extension FilesApp {
    /// What ``WriteFile`` does with a file that already exists.
    public enum WriteMode: String, Sendable, CaseIterable {
        /// Replaces its contents.
        case overwrite
        /// Adds to its end.
        case append
        /// Refuses to write: the file must not exist yet.
        case new
    }
}

extension FilesApp.WriteMode: AppEnum {
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Write Mode"
    public static let caseDisplayRepresentations: [FilesApp.WriteMode: DisplayRepresentation] = [
        .overwrite: "Overwrite",
        .append: "Append",
        .new: "New File Only"
    ]
}
