import Foundation
import IntentKit

extension FilesApp {
    /// Finds files by their properties, in a folder or a folder's whole tree.
    ///
    /// A `find` names where to look with a `folder` condition, and recursion is its explicit
    /// choice:
    ///
    /// - `folder: { equalTo: ~/Downloads }` looks at the entries of `~/Downloads` alone;
    /// - `folder: { hasPrefix: ~/Downloads }` looks at every entry below it, at any depth.
    ///
    /// A `find` without a `folder` condition fails, saying so. The other conditions are
    /// checked on each entry found, with the comparisons of workflow conditions, then the
    /// results are sorted and limited:
    ///
    /// ```yaml
    /// - find: Files.FileEntity
    ///   where:
    ///     folder: { equalTo: ~/Downloads }
    ///     modified: { lessThan: 2026-01-01 }
    ///   sortBy: [ { size: descending } ]
    ///   limit: 10
    /// ```
    ///
    /// By identifier or text, a path (see ``FilePath``) finds the file at it.
    public struct FileQuery: EntityPropertyQuery, EntityStringQuery {
        public init() {}

        public static let properties = QueryProperties {
            Property(\FileEntity.$folder) {
                EqualToComparator { FileCondition.inFolder($0, recursive: false) }
                HasPrefixComparator { FileCondition.inFolder($0, recursive: true) }
            }
            Property(\FileEntity.$name) {
                EqualToComparator { FileCondition.compare(.equalTo, \.name, $0) }
                NotEqualToComparator { FileCondition.compare(.notEqualTo, \.name, $0) }
                ContainsComparator { FileCondition.compare(.contains, \.name, $0) }
                HasPrefixComparator { FileCondition.compare(.hasPrefix, \.name, $0) }
                HasSuffixComparator { FileCondition.compare(.hasSuffix, \.name, $0) }
            }
            Property(\FileEntity.$extension) {
                EqualToComparator { FileCondition.compare(.equalTo, \.extension, $0) }
                NotEqualToComparator { FileCondition.compare(.notEqualTo, \.extension, $0) }
            }
            Property(\FileEntity.$size) {
                EqualToComparator { FileCondition.compare(.equalTo, \.size, $0) }
                LessThanComparator { FileCondition.compare(.lessThan, \.size, $0) }
                LessThanOrEqualToComparator { FileCondition.compare(.lessThanOrEqualTo, \.size, $0) }
                GreaterThanComparator { FileCondition.compare(.greaterThan, \.size, $0) }
                GreaterThanOrEqualToComparator { FileCondition.compare(.greaterThanOrEqualTo, \.size, $0) }
                IsBetweenComparator { FileCondition.between(\.size, $0, $1) }
            }
            Property(\FileEntity.$modified) {
                LessThanComparator { FileCondition.compare(.lessThan, \.modified, $0) }
                LessThanOrEqualToComparator { FileCondition.compare(.lessThanOrEqualTo, \.modified, $0) }
                GreaterThanComparator { FileCondition.compare(.greaterThan, \.modified, $0) }
                GreaterThanOrEqualToComparator { FileCondition.compare(.greaterThanOrEqualTo, \.modified, $0) }
                IsBetweenComparator { FileCondition.between(\.modified, $0, $1) }
            }
            Property(\FileEntity.$created) {
                LessThanComparator { FileCondition.compare(.lessThan, \.created, $0) }
                GreaterThanComparator { FileCondition.compare(.greaterThan, \.created, $0) }
                IsBetweenComparator { FileCondition.between(\.created, $0, $1) }
            }
            Property(\FileEntity.$isDirectory) {
                EqualToComparator { FileCondition.compare(.equalTo, \.isDirectory, $0) }
            }
            Property(\FileEntity.$contentType) {
                EqualToComparator { FileCondition.compare(.equalTo, \.contentType, $0) }
                NotEqualToComparator { FileCondition.compare(.notEqualTo, \.contentType, $0) }
                HasPrefixComparator { FileCondition.compare(.hasPrefix, \.contentType, $0) }
            }
        }

        public static let sortingOptions = SortingOptions {
            SortableBy(\FileEntity.$name)
            SortableBy(\FileEntity.$extension)
            SortableBy(\FileEntity.$folder)
            SortableBy(\FileEntity.$size)
            SortableBy(\FileEntity.$modified)
            SortableBy(\FileEntity.$isDirectory)
            SortableBy(\FileEntity.$contentType)
        }

        /// How each sortable property is read, by its wrapper's key path.
        nonisolated(unsafe) private static let sortKeys: [PartialKeyPath<FileEntity>: @Sendable (FileEntity) -> IntentValue] = [
            \FileEntity.$name: { $0.name.intentValue }, \FileEntity.$extension: { $0.extension.intentValue },
            \FileEntity.$folder: { $0.folder.intentValue }, \FileEntity.$size: { $0.size.intentValue },
            \FileEntity.$modified: { $0.modified.intentValue }, \FileEntity.$isDirectory: { $0.isDirectory.intentValue },
            \FileEntity.$contentType: { $0.contentType.intentValue }
        ]

        public func entities(for identifiers: [String]) async throws -> [FileEntity] {
            identifiers.compactMap { try? FileEntity(at: FilePath.resolve($0)) }
        }

        public func entities(matching string: String) async throws -> [FileEntity] {
            (try? FileEntity(at: FilePath.resolve(string))).map { [$0] } ?? []
        }

        public func entities(
            matching comparators: [FileCondition], mode: ComparatorMode, sortedBy: [Sort<FileEntity>], limit: Int?
        ) async throws -> [FileEntity] {
            let scopes = comparators.compactMap(\.scope)
            guard !scopes.isEmpty else { throw FileError.noFolderToSearch }
            var seen: Set<String> = []
            var found: [FileEntity] = []
            for scope in scopes {
                for entity in try FolderListing.entries(of: scope.folder, recursive: scope.recursive) where seen.insert(entity.id).inserted {
                    let results = comparators.lazy.map { $0.holds(entity) }
                    if mode == .and ? results.allSatisfy({ $0 }) : results.contains(true) { found.append(entity) }
                }
            }
            let keys = sortedBy.compactMap { sort in Self.sortKeys[sort.by].map { (read: $0, ascending: sort.order == .ascending) } }
            if !keys.isEmpty {
                found.sort { left, right in
                    for key in keys {
                        let order = ValueComparison.order(key.read(left), key.read(right)) ?? .orderedSame
                        if order != .orderedSame { return key.ascending == (order == .orderedAscending) }
                    }
                    return left.id < right.id
                }
            }
            return limit.map { Array(found.prefix(max($0, 0))) } ?? found
        }
    }
}
