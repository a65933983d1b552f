import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a workflow file within a size limit: the size is checked with `stat` before
/// anything is read, and the read stops one byte past the limit, so neither a huge file nor
/// one that grows (or a pipe) costs more memory than the limit.
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
        if status.st_mode & S_IFMT == S_IFREG, status.st_size > maximumSize {
            throw failure(tooLarge, help: tooLargeHelp)
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw failure("cannot read the workflow file: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
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

    /// Whether a file name ends in `.yaml` or `.yml`.
    static func hasWorkflowExtension(_ name: String) -> Bool {
        name.hasSuffix(".yaml") || name.hasSuffix(".yml")
    }
}
