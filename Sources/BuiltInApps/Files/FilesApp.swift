import IntentKit

/// Files: read, write, list, copy, move, delete and find files and folders.
///
/// Paths take `~` for the home folder; relative paths are relative to the folder of the
/// workflow file being run, or to the current directory outside a workflow (``FilePath``).
///
/// ```yaml
/// - perform: Files.WriteFile
///   with: { path: ~/notes/today.txt, content: "Buy milk", createFolders: true }
/// ```
public enum FilesApp {
    /// The app, as `shortcuts` installs it.
    public static let app = IntentApp(
        name: "Files",
        intents: [
            ReadFile.self, WriteFile.self, ListFolder.self, Copy.self, Move.self, Delete.self, CreateFolder.self
        ],
        entities: [FileEntity.self],
        strings: BuiltInStrings.catalog(table: "Files"))
}
