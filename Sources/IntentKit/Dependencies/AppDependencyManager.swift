import Foundation
import Synchronization

/// Holds the objects intents depend on (a database, a navigator), made once when first used.
///
/// ```swift
/// AppDependencyManager.shared.add { try! LibraryDatabase.open() }
///
/// struct MarkAsRead: AppIntent {
///     @Dependency var database: LibraryDatabase
///     ...
/// }
/// ```
public final class AppDependencyManager: Sendable {
    /// The process-wide manager.
    public static let shared = AppDependencyManager()

    private struct Entry {
        var make: @Sendable () -> Any
        var value: Any?
    }

    private let entries = Mutex<[String: Entry]>([:])

    public init() {}

    /// Adds a dependency, made the first time it is used.
    ///
    /// - Parameters:
    ///   - key: Distinguishes several dependencies of one type.
    ///   - dependency: Makes the dependency.
    public func add<Dependency>(key: String? = nil, _ dependency: @escaping @Sendable () -> Dependency) {
        entries.withLock { $0[Self.slot(Dependency.self, key)] = Entry(make: dependency, value: nil) }
    }

    /// Adds a dependency that already exists.
    ///
    /// - Parameters:
    ///   - key: Distinguishes several dependencies of one type.
    ///   - dependency: The dependency.
    public func add<Dependency: Sendable>(key: String? = nil, dependency: Dependency) {
        entries.withLock { $0[Self.slot(Dependency.self, key)] = Entry(make: { dependency }, value: dependency) }
    }

    /// The dependency of a type, made now if it was not yet.
    ///
    /// - Returns: The dependency, or `nil` when none was added.
    public func resolve<Dependency>(_ type: Dependency.Type, key: String? = nil) -> Dependency? {
        let slot = Self.slot(type, key)
        return entries.withLock { table -> Dependency? in
            guard var entry = table[slot] else { return nil }
            if let value = entry.value as? Dependency { return value }
            let value = entry.make()
            entry.value = value
            table[slot] = entry
            return value as? Dependency
        }
    }

    private static func slot(_ type: Any.Type, _ key: String?) -> String {
        String(reflecting: type) + "#" + (key ?? "")
    }
}

/// Reads a dependency added to ``AppDependencyManager``: `@Dependency var database: LibraryDatabase`.
@propertyWrapper
public struct Dependency<Value>: @unchecked Sendable {
    private let key: String?
    private let manager: AppDependencyManager

    /// Declares a dependency.
    ///
    /// - Parameters:
    ///   - key: Which dependency of the type, when several were added.
    ///   - manager: Where to look (``AppDependencyManager/shared`` by default).
    public init(key: String? = nil, manager: AppDependencyManager = .shared) {
        self.key = key
        self.manager = manager
    }

    /// The dependency.
    public var wrappedValue: Value {
        guard let value = manager.resolve(Value.self, key: key) else {
            fatalError("No dependency of type \(Value.self) was added: call AppDependencyManager.shared.add { ... } when the app starts")
        }
        return value
    }
}
