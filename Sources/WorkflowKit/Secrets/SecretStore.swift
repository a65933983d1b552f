import Clockwork
import Foundation
import IntentKit

/// The secrets workflows read as `${secrets.NAME}`: one JSON file, `secrets.json` in
/// `$SHORTCUTS_HOME`, readable and writable by its owner only (mode 0600).
///
/// The file is written atomically: a temporary file created with mode 0600 beside it, then
/// renamed over it, so it is never seen half-written nor, even for an instant, readable by
/// others. Writers take a lock on the folder, so two `set`s at once both land. A file that
/// other users can read or change is refused (``SecretStoreError/exposed(path:mode:)``,
/// whose ``SecretStoreError/fix`` is `chmod 600 PATH`) by every reader that wants values,
/// while its values are still masked in what runs write (``mask()``).
///
/// ```swift
/// let store = SecretStore.standard()
/// try store.set("ghp_…", named: "GITHUB_TOKEN")
/// let token = try store.secrets()["GITHUB_TOKEN"]?.value
/// try store.remove(named: "GITHUB_TOKEN")
/// ```
public final class SecretStore: Sendable {
    /// A stored secret: its name, its value and when it was set.
    public struct Secret: Sendable, Hashable {
        /// The name, which follows ``SecretStore/namePattern``.
        public var name: String
        /// The value: non-empty text.
        public var value: String
        /// When it was last set.
        public var setAt: Date

        /// Creates a secret.
        public init(name: String, value: String, setAt: Date) {
            self.name = name
            self.value = value
            self.setAt = setAt
        }
    }

    /// The file name in the folder: `secrets.json`.
    public static let fileName = "secrets.json"

    /// The names a secret may have, as a regular expression: letters, digits and `_`,
    /// starting with a letter or `_` (the names of environment variables).
    public static let namePattern = "[A-Za-z_][A-Za-z0-9_]*"

    /// The largest secrets file read, so a file that is not ours cannot exhaust memory.
    static let sizeLimit = 1 << 20

    /// The secrets file.
    public let url: URL

    /// The last state of the file read, by its signature.
    let cache = SnapshotCache()

    /// A store whose file is `secrets.json` in a folder; nothing is read or created yet.
    ///
    /// ```swift
    /// let store = SecretStore(folder: URL(fileURLWithPath: "/srv/shortcuts"))
    /// ```
    ///
    /// - Parameter folder: The folder that holds (or will hold) the file.
    public init(folder: URL) {
        url = folder.appendingPathComponent(Self.fileName)
    }

    /// The store in `$SHORTCUTS_HOME` (the process's environment by default).
    ///
    /// ```swift
    /// let store = SecretStore.standard()
    /// ```
    ///
    /// - Parameter environment: The environment that decides the data folder.
    /// - Returns: The store of ``ShortcutsHome/directory(environment:)``.
    public static func standard(environment: [String: String] = ProcessEnvironment.current) -> SecretStore {
        let folder = ShortcutsHome.directory(environment: environment)
        return standardStores.withLock { stores in
            if let store = stores[folder.path] { return store }
            let store = SecretStore(folder: folder)
            stores[folder.path] = store
            return store
        }
    }

    /// One store per folder, so that runs in one process share what was read.
    private static let standardStores = LockedStores()

    final class LockedStores: @unchecked Sendable {
        private let lock = NSLock()
        private var stores: [String: SecretStore] = [:]

        func withLock<T>(_ work: (inout [String: SecretStore]) -> T) -> T {
            lock.withLock { work(&stores) }
        }
    }

    /// Whether a text is a valid secret name (``namePattern``).
    ///
    /// ```swift
    /// SecretStore.isValidName("GITHUB_TOKEN")   // true
    /// SecretStore.isValidName("github-token")   // false
    /// ```
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || isASCIILetter(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || isASCIILetter($0) || ("0"..."9").contains($0) }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// The stored secrets by name; none when the file does not exist.
    ///
    /// ```swift
    /// for secret in try store.secrets().values.sorted(by: { $0.name < $1.name }) { print(secret.name, secret.setAt) }
    /// ```
    ///
    /// - Returns: The secrets by name.
    /// - Throws: ``SecretStoreError`` when the file gives others access, cannot be read, or is damaged.
    public func secrets() throws(SecretStoreError) -> [String: Secret] {
        let snapshot = self.snapshot()
        if let problem = snapshot.problem { throw problem }
        return snapshot.secrets
    }

    /// Stores a secret, replacing the value of one with the same name.
    ///
    /// ```swift
    /// let replaced = try store.set("s3cr3t-value", named: "API_TOKEN")
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value: non-empty text.
    ///   - name: The name (``namePattern``).
    ///   - now: When it is set: the time now by default.
    /// - Returns: Whether a secret of that name was replaced.
    /// - Throws: ``SecretStoreError`` for an invalid name, an empty value, a file that gives
    ///   others access, cannot be read or written.
    @discardableResult
    public func set(_ value: String, named name: String, now: Date? = nil) throws(SecretStoreError) -> Bool {
        let now = now ?? TaskClock.current.now()
        guard Self.isValidName(name) else { throw .invalidName(name) }
        guard !value.isEmpty else { throw .emptyValue(name: name) }
        return try changing { (secrets: inout [String: Secret]) throws(SecretStoreError) in
            let replaced = secrets[name] != nil
            secrets[name] = Secret(name: name, value: value, setAt: now)
            return replaced
        }
    }

    /// Removes a secret.
    ///
    /// ```swift
    /// try store.remove(named: "API_TOKEN")
    /// ```
    ///
    /// - Parameter name: The secret's name.
    /// - Throws: ``SecretStoreError/unknownName(_:stored:)`` when there is no such secret, or a
    ///   problem of the file.
    public func remove(named name: String) throws(SecretStoreError) {
        try changing { (secrets: inout [String: Secret]) throws(SecretStoreError) in
            guard secrets.removeValue(forKey: name) != nil else {
                throw .unknownName(name, stored: secrets.keys.sorted())
            }
        }
    }

    /// What masks every stored value in text and values a run writes. A file that gives
    /// others access is still read for this (its values are then no less worth hiding); a file
    /// that cannot be read masks nothing.
    ///
    /// ```swift
    /// print(store.mask().mask("token: s3cr3t-value"))   // token: ***
    /// ```
    public func mask() -> SecretMask {
        snapshot().mask
    }

    /// Reads the file under the folder's lock, changes its secrets and writes it back atomically.
    private func changing<T>(_ change: (inout [String: Secret]) throws(SecretStoreError) -> T) throws(SecretStoreError) -> T {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .unwritable(path: url.path, reason: "its folder cannot be created")
        }
        return try SecretFile.withFolderLock(folder.path) { () throws(SecretStoreError) -> T in
            let snapshot = SecretFile.load(url.path)
            if let problem = snapshot.problem { throw problem }
            var secrets = snapshot.secrets
            let result = try change(&secrets)
            try SecretFile.save(secrets, to: url.path)
            return result
        }
    }

    /// The file's current contents, read again only when its signature changed.
    func snapshot() -> Snapshot {
        let signature = SecretFile.Signature(path: url.path)
        if let cached = cache.snapshot(for: signature) { return cached }
        let snapshot = SecretFile.load(url.path)
        cache.store(snapshot, for: signature)
        return snapshot
    }

    /// What reading the file gave: its secrets (also when it gives others access) and what is
    /// wrong with it.
    struct Snapshot: Sendable {
        var secrets: [String: Secret]
        var problem: SecretStoreError?
        var mask: SecretMask

        init(secrets: [String: Secret], problem: SecretStoreError?) {
            self.secrets = secrets
            self.problem = problem
            mask = SecretMask(values: secrets.values.map(\.value))
        }
    }

    /// The last snapshot and the signature of the file it was read from.
    final class SnapshotCache: @unchecked Sendable {
        private let lock = NSLock()
        private var signature: SecretFile.Signature?
        private var snapshot: Snapshot?

        func snapshot(for signature: SecretFile.Signature?) -> Snapshot? {
            guard let signature else { return nil }
            return lock.withLock { self.signature == signature ? snapshot : nil }
        }

        func store(_ snapshot: Snapshot, for signature: SecretFile.Signature?) {
            lock.withLock {
                self.signature = signature
                self.snapshot = signature == nil ? nil : snapshot
            }
        }
    }
}
