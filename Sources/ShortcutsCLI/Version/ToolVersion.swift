import BuildRevision

/// The version `shortcuts --version` prints: the release number, and the source revision when
/// the build was given one.
///
/// ```sh
/// swift build -c release -Xcc -DSHORTCUTS_REVISION="\"$(git rev-parse --short HEAD)\""
/// .build/release/shortcuts --version     # 0.1.0 (abc1234)
/// ```
public enum ToolVersion {
    /// The release number of this package.
    public static let number = "0.1.0"

    /// The source revision passed at build time, or `nil`.
    public static var revision: String? {
        let revision = String(cString: shortcuts_build_revision())
        return revision.isEmpty ? nil : revision
    }

    /// `0.1.0 (abc1234)`, or `0.1.0` when the revision is not known.
    public static var text: String {
        revision.map { "\(number) (\($0))" } ?? number
    }
}
