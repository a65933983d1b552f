import Foundation

/// The secrets file on disk: read through one descriptor (so the permissions checked are those
/// of the file read), written to a temporary file created 0600 and renamed over it.
///
/// The file is JSON: `{"secrets": {"NAME": {"setAt": "2026-11-24T18:00:00Z", "value": "…"}}, "version": 1}`.
enum SecretFile {
    /// The permission bits that give anyone but the owner access.
    static let othersAccess: mode_t = 0o077

    /// Reads the file; a missing file holds no secrets.
    static func load(_ path: String) -> SecretStore.Snapshot {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return SecretStore.Snapshot(secrets: [:], problem: nil) }
            let reason = code == ELOOP ? "it is a symbolic link; it must be a regular file" : Self.reason(code)
            return SecretStore.Snapshot(secrets: [:], problem: .unreadable(path: path, reason: reason))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            return SecretStore.Snapshot(secrets: [:], problem: .unreadable(path: path, reason: Self.reason(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return SecretStore.Snapshot(secrets: [:], problem: .unreadable(path: path, reason: "it is not a regular file"))
        }
        guard Int(info.st_size) <= SecretStore.sizeLimit else {
            return SecretStore.Snapshot(secrets: [:], problem: .damaged(path: path, reason: "it is larger than 1 MiB"))
        }
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return SecretStore.Snapshot(secrets: [:], problem: .unreadable(path: path, reason: Self.reason(errno)))
            }
            if count == 0 { break }
            bytes += buffer[..<count]
            if bytes.count > SecretStore.sizeLimit {
                return SecretStore.Snapshot(secrets: [:], problem: .damaged(path: path, reason: "it is larger than 1 MiB"))
            }
        }
        let secrets: [String: SecretStore.Secret]
        do {
            secrets = try decode(Data(bytes))
        } catch {
            return SecretStore.Snapshot(secrets: [:], problem: .damaged(path: path, reason: error.reason))
        }
        let mode = info.st_mode & 0o7777
        let problem: SecretStoreError? = mode & othersAccess != 0 ? .exposed(path: path, mode: UInt32(mode)) : nil
        return SecretStore.Snapshot(secrets: secrets, problem: problem)
    }

    /// Writes the secrets to a new file created with mode 0600 beside `path`, flushes it to
    /// disk and renames it over `path`. The old file stays whole when anything fails.
    static func save(_ secrets: [String: SecretStore.Secret], to path: String) throws(SecretStoreError) {
        let data = encode(secrets)
        var template = Array((path + ".XXXXXX").utf8CString)
        // mkstemp creates the file with mode 0600 whatever the umask.
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .unwritable(path: path, reason: reason(errno)) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = String(cString: template)
        var isRenamed = false
        defer {
            close(descriptor)
            if !isRenamed { unlink(temporary) }
        }
        guard fchmod(descriptor, 0o600) == 0 else { throw .unwritable(path: path, reason: reason(errno)) }
        var written = 0
        while written < data.count {
            let count = data.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unwritable(path: path, reason: reason(errno))
            }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw .unwritable(path: path, reason: reason(errno)) }
        guard rename(temporary, path) == 0 else { throw .unwritable(path: path, reason: reason(errno)) }
        isRenamed = true
        let folder = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    /// Runs `work` holding an exclusive lock on a folder, so that writers take turns.
    static func withFolderLock<T>(_ folder: String, _ work: () throws(SecretStoreError) -> T) throws(SecretStoreError) -> T {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unwritable(path: folder, reason: reason(errno)) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .unwritable(path: folder, reason: reason(errno)) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try work()
    }

    // MARK: JSON

    struct FormatError: Error {
        var reason: String
    }

    static func decode(_ data: Data) throws -> [String: SecretStore.Secret] {
        guard let document = try? JSONSerialization.jsonObject(with: data) else {
            throw FormatError(reason: "it is not JSON")
        }
        guard let object = document as? [String: Any], let entries = object["secrets"] as? [String: Any] else {
            throw FormatError(reason: "it has no \"secrets\" object")
        }
        var secrets: [String: SecretStore.Secret] = [:]
        for (name, entry) in entries {
            guard SecretStore.isValidName(name) else { throw FormatError(reason: "'\(name)' is not a valid secret name") }
            guard let fields = entry as? [String: Any], let value = fields["value"] as? String, !value.isEmpty else {
                throw FormatError(reason: "secret '\(name)' has no value")
            }
            let setAt = (fields["setAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) } ?? Date(timeIntervalSince1970: 0)
            secrets[name] = SecretStore.Secret(name: name, value: value, setAt: setAt)
        }
        return secrets
    }

    static func encode(_ secrets: [String: SecretStore.Secret]) -> Data {
        var entries: [String: Any] = [:]
        for secret in secrets.values {
            entries[secret.name] = ["value": secret.value, "setAt": secret.setAt.formatted(.iso8601)]
        }
        let document: [String: Any] = ["version": 1, "secrets": entries]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])) ?? Data("{}".utf8)
        return data + Data("\n".utf8)
    }

    // MARK: Signature

    /// What tells the file's versions apart without reading it: device, inode, size,
    /// modification and change times (a `chmod` changes the last).
    struct Signature: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var changed: Int64

        init?(path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        }
    }

    /// An error number in words, such as `permission denied`.
    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}

extension Error {
    fileprivate var reason: String {
        (self as? SecretFile.FormatError)?.reason ?? "\(self)"
    }
}
