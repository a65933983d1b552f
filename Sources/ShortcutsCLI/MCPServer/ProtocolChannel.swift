import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard input and output, kept for the protocol alone.
///
/// The protocol's messages move to private descriptors (closed in child processes); then
/// descriptor 0 reads `/dev/null` and descriptor 1 writes where standard error goes. So nothing
/// else in the process (an intent's `print`, a log line, a child process that inherits its
/// streams) can read a message meant for the server or write into the stream of its answers.
///
/// The transport makes the streams non-blocking; ``restoreModes()`` puts back their modes, so
/// a terminal the server was started from is left as it was.
///
/// ```swift
/// let channel = try ProtocolChannel.claimStandardStreams()
/// let transport = StdioTransport(input: .init(rawValue: channel.input), output: .init(rawValue: channel.output))
/// ```
struct ProtocolChannel {
    /// The descriptor the protocol reads.
    var input: Int32
    /// The descriptor the protocol writes.
    var output: Int32
    /// The status flags of standard input and output when the server started.
    private var modes: (input: Int32, output: Int32)

    /// Moves the protocol to private descriptors and points 0 and 1 elsewhere.
    ///
    /// - Throws: ``CommandLineError`` naming the system call that failed.
    static func claimStandardStreams() throws -> ProtocolChannel {
        fflush(nil)
        let input = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
        let output = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        let empty = open("/dev/null", O_RDONLY)
        guard input >= 0, output >= 0, empty >= 0, dup2(empty, STDIN_FILENO) >= 0, dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else {
            throw CommandLineError("cannot reserve standard input and output for the protocol: \(String(cString: strerror(errno)))")
        }
        close(empty)
        return ProtocolChannel(input: input, output: output, modes: (fcntl(input, F_GETFL), fcntl(output, F_GETFL)))
    }

    /// Puts back the status flags the streams had when the server started.
    func restoreModes() {
        if modes.input >= 0 { _ = fcntl(input, F_SETFL, modes.input) }
        if modes.output >= 0 { _ = fcntl(output, F_SETFL, modes.output) }
    }
}
