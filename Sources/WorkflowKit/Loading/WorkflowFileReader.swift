import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a workflow file within a size limit: the size is checked with `stat` before
/// anything is read, and the read stops one byte past the limit, so neither a huge file nor
/// one that grows (or a pipe) costs more memory than the limit. A FIFO is opened without
/// waiting for a writer (one with no writer reads as empty), and a device or a socket is
/// refused, so that no file in a workflows folder can make a command wait.
///
/// ```swift
/// let data = try WorkflowFileReader.contents(ofFile: "Workflows/add.yaml", maximumSize: 16 << 20, location: start)
/// ```
enum WorkflowFileReader {
    /// Reads a file.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - maximumSize: The most bytes accepted.
    ///   - location: Where errors point (the file's first line).
    /// - Returns: The file's bytes.
    /// - Throws: ``DiagnosticError`` naming the reason in words: missing, a folder, unreadable, too large.
    static func contents(ofFile path: String, maximumSize: Int, location: SourceLocation) throws(DiagnosticError) -> Data {
        func failure(_ message: String, help: String? = nil) -> DiagnosticError {
            DiagnosticError([.error(message, at: location, help: help)])
        }
        let tooLarge = "the workflow file is too large: more than \(maximumSize) bytes (16 MiB)"
        let tooLargeHelp = "split it into workflows that run each other with run:"
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw failure("cannot read the workflow file: \(String(cString: strerror(errno)))")
        }
        if status.st_mode & S_IFMT == S_IFDIR {
            throw failure("'\(path)' is a folder, not a workflow file", help: "name a .yaml file in it")
        }
        if let kind = specialKind(status.st_mode), status.st_mode & S_IFMT != S_IFIFO {
            throw failure("'\(path)' is \(kind), not a workflow file", help: "name a regular .yaml file")
        }
        if status.st_mode & S_IFMT == S_IFREG, status.st_size > maximumSize {
            throw failure(tooLarge, help: tooLargeHelp)
        }
        // O_NONBLOCK: opening a FIFO does not wait for a writer; reads block again after.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw failure("cannot read the workflow file: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var data = Data()
        let chunkSize = 1 << 16
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while data.count <= maximumSize {
            let wanted = min(chunkSize, maximumSize + 1 - data.count)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read the workflow file: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return data }
            data.append(contentsOf: chunk[0..<count])
        }
        throw failure(tooLarge, help: tooLargeHelp)
    }

    /// A special file's kind in words (`a FIFO (named pipe)`, `a character device`), `nil` for
    /// a regular file or a folder.
    static func specialKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG, S_IFDIR: nil
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    /// The names of the workflow files in a folder: regular files (or links to them) named
    /// `*.yaml` or `*.yml`, sorted; none when the folder cannot be read. A FIFO or a device
    /// named like a workflow is left out, so that listing a folder never waits on one.
    ///
    /// - Parameters:
    ///   - folder: The folder.
    ///   - includingHidden: Whether names starting with `.` are included.
    static func workflowFileNames(in folder: URL, includingHidden: Bool) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            guard hasWorkflowExtension(name), includingHidden || !name.hasPrefix(".") else { return false }
            var status = stat()
            return stat(folder.appendingPathComponent(name).path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        }.sorted()
    }

    /// Whether a file name ends in `.yaml` or `.yml`.
    static func hasWorkflowExtension(_ name: String) -> Bool {
        name.hasSuffix(".yaml") || name.hasSuffix(".yml")
    }
}
