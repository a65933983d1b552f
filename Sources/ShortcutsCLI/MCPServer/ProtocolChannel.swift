import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The descriptors the MCP protocol reads and writes: standard input and output, kept for the
/// protocol alone, or a pair of pipes in tests.
///
/// ``claimStandardStreams()`` moves the protocol's messages to private descriptors (closed in
/// child processes); then descriptor 0 reads `/dev/null` and descriptor 1 writes where standard
/// error goes. So nothing else in the process (an intent's `print`, a log line, a child process
/// that inherits its streams) can read a message meant for the server or write into the stream
/// of its answers. Their modes are left as they are: ``ChannelTransport`` reads and writes
/// blocking or non-blocking descriptors alike.
///
/// ```swift
/// let channel = try ProtocolChannel.claimStandardStreams()
/// let transport = ChannelTransport(channel: channel, methods: methods, logger: logger)
/// ```
struct ProtocolChannel: Sendable {
    /// The descriptor the protocol reads.
    var input: Int32
    /// The descriptor the protocol writes.
    var output: Int32

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
        return ProtocolChannel(input: input, output: output)
    }
}
