import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The descriptors the protocol is spoken on, moved out of the way of the intents.
///
/// An intent that prints (or a program it starts that inherits standard output) must not
/// corrupt the protocol, and none may read the engine's messages. So before serving, the
/// real standard input and output move to private descriptors that programs started later
/// do not inherit; descriptor 1 then points at standard error (the engine's log) and
/// descriptor 0 at `/dev/null`.
///
/// ```swift
/// let streams = try ProtocolStreams.takeOver()
/// write(streams.output, line, line.count)
/// ```
struct ProtocolStreams: Sendable {
    /// Where the engine's messages are read.
    let input: Int32
    /// Where messages to the engine are written.
    let output: Int32

    /// Moves standard input and output to private descriptors.
    ///
    /// - Throws: ``ProtocolError`` when a descriptor cannot be duplicated.
    static func takeOver() throws -> ProtocolStreams {
        fflush(nil)
        let output = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        let input = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
        guard output >= 0, input >= 0 else {
            throw ProtocolError.internalError("cannot set up the protocol's descriptors: \(String(cString: strerror(errno)))")
        }
        dup2(STDERR_FILENO, STDOUT_FILENO)
        let nothing = open("/dev/null", O_RDONLY)
        if nothing >= 0 {
            dup2(nothing, STDIN_FILENO)
            close(nothing)
        }
        // A write to an engine that went away fails with EPIPE instead of ending the process.
        signal(SIGPIPE, SIG_IGN)
        return ProtocolStreams(input: input, output: output)
    }

    /// Writes all of `data` to the output.
    ///
    /// - Returns: Whether it was written (`false` once the engine closed its end).
    func write(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer -> Bool in
            guard var pointer = buffer.baseAddress else { return true }
            var remaining = buffer.count
            while remaining > 0 {
                let written = Glibc.write(output, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                remaining -= written
                pointer += written
            }
            return true
        }
    }

    /// Reads lines from the input until it ends, calling `body` with each (without its newline).
    func readLines(_ body: (Data) -> Void) {
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending.append(contentsOf: buffer[0..<count])
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                body(Data(pending[start..<newline]))
                start = pending.index(after: newline)
            }
            pending = Data(pending[start...])
        }
        if !pending.isEmpty { body(pending) }
    }
}
