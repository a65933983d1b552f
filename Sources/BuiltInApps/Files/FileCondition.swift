import Foundation
import IntentKit

extension FilesApp {
    /// One condition of a file query: a folder to look in, or a test on each file found.
    public struct FileCondition: Sendable {
        /// A folder to look in, and whether its whole tree.
        struct Scope: Sendable {
            var folder: URL
            var recursive: Bool
        }

        var scope: Scope?
        let test: @Sendable (FileEntity) -> Bool

        /// Whether a file passes.
        func holds(_ entity: FileEntity) -> Bool { test(entity) }

        /// Files in a folder (`equalTo`) or anywhere below it (`hasPrefix`).
        static func inFolder(_ text: String, recursive: Bool) -> FileCondition {
            let folder = FilePath.resolve(text)
            let path = folder.path
            let inside = path == "/" ? "/" : path + "/"
            return FileCondition(scope: Scope(folder: folder, recursive: recursive)) { entity in
                entity.folder == path || (recursive && entity.folder.hasPrefix(inside))
            }
        }

        /// A property compared with a value, as workflow conditions compare.
        static func compare<Value: IntentValueConvertible>(
            _ comparator: ComparatorKind, _ property: KeyPath<FileEntity, Value> & Sendable, _ operand: some IntentValueConvertible
        ) -> FileCondition {
            let operand = operand.intentValue
            return FileCondition(scope: nil) { comparator.evaluate($0[keyPath: property].intentValue, [operand]) }
        }

        /// A property between two values, both included.
        static func between<Value: IntentValueConvertible>(
            _ property: KeyPath<FileEntity, Value> & Sendable, _ lower: some IntentValueConvertible, _ upper: some IntentValueConvertible
        ) -> FileCondition {
            let bounds = [lower.intentValue, upper.intentValue]
            return FileCondition(scope: nil) { ComparatorKind.isBetween.evaluate($0[keyPath: property].intentValue, bounds) }
        }
    }
}
