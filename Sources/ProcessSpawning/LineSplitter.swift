import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Splits bytes into the lines of a newline-delimited protocol, in time linear in the bytes
/// and in memory bounded by a limit: each byte is looked at once (`memchr`), however long its
/// line, and a line longer than the limit is counted, not kept.
///
/// Every line protocol the engine reads goes through it: the messages a client writes to
/// `shortcuts mcp`, what an extension writes on standard output and standard error, and what a
/// configured MCP server writes on standard output.
///
/// A line longer than ``limit`` bytes (its newline not counted) comes out twice: as
/// ``Event/limitExceeded`` as soon as the bytes given show that it is too long, then as
/// ``Event/tooLong(byteCount:)`` at its newline, with its length. Its bytes are dropped, and the
/// line after it is read as usual. A reader that gives up on such a line acts on the first; one
/// that answers it and goes on acts on the second.
///
/// ```swift
/// var lines = LineSplitter(limit: 16)
/// let bytes = Data("[1]\n\n0123456789abcdefgh\n{\"a\"".utf8)
/// bytes.withUnsafeBytes { lines.append($0) }
/// // [.line("[1]"), .line(""), .limitExceeded, .tooLong(byteCount: 18)]
/// lines.finish()   // .line(#"{"a""#): the bytes after the last newline, at the end of the input
/// ```
public struct LineSplitter: Sendable {
    /// What the bytes given so far show.
    public enum Event: Equatable, Sendable {
        /// A line of at most ``LineSplitter/limit`` bytes, without its newline.
        case line(Data)
        /// The line being read has just grown longer than the limit; its bytes are dropped
        /// from here on. Comes once for each such line, before its ``tooLong(byteCount:)``.
        case limitExceeded
        /// A line longer than the limit has ended; `byteCount` is its length without its newline.
        case tooLong(byteCount: Int)
    }

    /// The longest line kept, in bytes without its newline.
    public let limit: Int
    /// Whether lines that are empty or hold only spaces, tabs and carriage returns are left out.
    public let skipsBlankLines: Bool
    /// The bytes of the line being read, while it is within the limit.
    private var line: [UInt8] = []
    /// The length so far of a line over the limit, whose bytes are dropped.
    private var droppedLength: Int?

    /// Starts before the first line.
    ///
    /// ```swift
    /// var messages = LineSplitter(limit: 4 * 1024 * 1024, skippingBlankLines: true)
    /// ```
    ///
    /// - Parameters:
    ///   - limit: The longest line kept, in bytes without its newline.
    ///   - skippingBlankLines: Whether lines that are empty or hold only spaces, tabs and
    ///     carriage returns are left out (a line protocol whose messages are JSON).
    public init(limit: Int, skippingBlankLines: Bool = false) {
        self.limit = limit
        skipsBlankLines = skippingBlankLines
    }

    /// Takes the next bytes of the input.
    ///
    /// ```swift
    /// let events = buffer.withUnsafeBytes { lines.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    /// ```
    ///
    /// - Parameter bytes: Bytes as read, cut anywhere.
    /// - Returns: What they show, in order: the lines they end, and whether the line under way
    ///   has just grown past the limit.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Event] {
        guard let base = bytes.baseAddress else { return [] }
        var events: [Event] = []
        var start = 0
        while start < bytes.count, let newline = memchr(base + start, 0x0A, bytes.count - start) {
            let end = base.distance(to: UnsafeRawPointer(newline))
            if take(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) { events.append(.limitExceeded) }
            if let event = endLine() { events.append(event) }
            start = end + 1
        }
        if take(UnsafeRawBufferPointer(rebasing: bytes[start...])) { events.append(.limitExceeded) }
        return events
    }

    /// Ends the input: the bytes after its last newline are its last line.
    ///
    /// ```swift
    /// if let last = lines.finish() { handle(last) }
    /// ```
    ///
    /// - Returns: That line, or its ``Event/tooLong(byteCount:)``; `nil` when the input ended
    ///   with a newline (or with a blank line that is skipped).
    public mutating func finish() -> Event? {
        guard droppedLength != nil || !line.isEmpty else { return nil }
        return endLine()
    }

    /// Adds bytes to the line under way.
    ///
    /// - Returns: Whether they took it past the limit.
    private mutating func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if let length = droppedLength {
            droppedLength = length + bytes.count
            return false
        }
        guard line.count + bytes.count > limit else {
            line.append(contentsOf: bytes)
            return false
        }
        droppedLength = line.count + bytes.count
        line = []
        return true
    }

    private mutating func endLine() -> Event? {
        defer {
            line.removeAll(keepingCapacity: line.count <= 64 * 1024)
            droppedLength = nil
        }
        if let length = droppedLength { return .tooLong(byteCount: length) }
        if skipsBlankLines && line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        return .line(Data(line))
    }
}

extension LineSplitter {
    /// Reads a descriptor until its end or a failed read, and hands on each event as soon as
    /// the bytes read show it. The bytes after the last newline stay for ``finish()``.
    ///
    /// A read interrupted by a signal is made again; a descriptor left non-blocking waits in
    /// `poll` until it can be read.
    ///
    /// ```swift
    /// var lines = LineSplitter(limit: 64 * 1024)
    /// let failure = lines.read(from: output) { event in
    ///     if case .line(let line) = event { print(String(decoding: line, as: UTF8.self)) }
    /// }
    /// if case .line(let last)? = lines.finish() { print(String(decoding: last, as: UTF8.self)) }
    /// ```
    ///
    /// - Parameters:
    ///   - descriptor: An open descriptor, left open.
    ///   - handle: Called with each event, on the calling thread, in order.
    /// - Returns: `nil` at the end of the input, or the `errno` of the read that failed.
    @discardableResult
    public mutating func read(from descriptor: Int32, _ handle: (Event) -> Void) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return nil }
            if count < 0 {
                let failure = errno
                if failure == EINTR { continue }
                guard failure == EAGAIN || failure == EWOULDBLOCK else { return failure }
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, -1)
                continue
            }
            for event in buffer.withUnsafeBytes({ append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }) { handle(event) }
        }
    }
}

/// `read(2)`, named apart from ``LineSplitter/read(from:_:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
