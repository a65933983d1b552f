import Foundation

/// Splits the bytes a client writes into its messages, one per line, in time linear in the
/// bytes: each byte is looked at once, however long its line.
///
/// A line longer than ``limit`` bytes (4 MiB, its newline not counted) is not kept: its bytes
/// are counted and dropped until its newline, and it comes out as
/// ``Event/tooLong(byteCount:)``, so the next line is read as usual. Lines that are empty or
/// hold only spaces, tabs and carriage returns are no messages and do not come out.
///
/// ```swift
/// var lines = MessageLines()
/// let read = Data("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\"".utf8)
/// read.withUnsafeBytes { lines.append($0) }   // [.message(the ping)]
/// lines.finish()                              // .message(#"{"jsonrpc""#): the rest, at the end of the input
/// ```
struct MessageLines {
    /// The longest message read, in bytes without its newline: 4 MiB.
    static let defaultLimit = 4 * 1024 * 1024

    /// What a line of the input is.
    enum Event: Equatable {
        /// A message, without its newline.
        case message(Data)
        /// A line longer than the limit, dropped; `byteCount` is its length without its newline.
        case tooLong(byteCount: Int)
    }

    /// The longest message kept, in bytes without its newline.
    let limit: Int
    /// The bytes of the line read so far, when it is within the limit.
    private var line: [UInt8] = []
    /// The length so far of a line over the limit, whose bytes are dropped.
    private var droppedLength: Int?

    /// Starts before the first line.
    ///
    /// - Parameter limit: The longest message kept, in bytes without its newline.
    init(limit: Int = MessageLines.defaultLimit) {
        self.limit = limit
    }

    /// Takes the next bytes of the input.
    ///
    /// - Parameter bytes: Bytes as read, cut anywhere.
    /// - Returns: The lines they end, in order.
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Event] {
        guard let base = bytes.baseAddress else { return [] }
        var events: [Event] = []
        var start = 0
        while start < bytes.count, let newline = memchr(base + start, 0x0A, bytes.count - start) {
            let end = base.distance(to: UnsafeRawPointer(newline))
            take(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            if let event = endLine() { events.append(event) }
            start = end + 1
        }
        take(UnsafeRawBufferPointer(rebasing: bytes[start...]))
        return events
    }

    /// Ends the input: the bytes after its last newline are its last line.
    ///
    /// - Returns: That line, if it is a message or too long.
    mutating func finish() -> Event? {
        endLine()
    }

    private mutating func take(_ bytes: UnsafeRawBufferPointer) {
        if let length = droppedLength {
            droppedLength = length + bytes.count
        } else if line.count + bytes.count > limit {
            droppedLength = line.count + bytes.count
            line = []
        } else {
            line.append(contentsOf: bytes)
        }
    }

    private mutating func endLine() -> Event? {
        defer {
            line.removeAll(keepingCapacity: line.count <= 64 * 1024)
            droppedLength = nil
        }
        if let length = droppedLength { return .tooLong(byteCount: length) }
        let blank: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")]
        guard line.contains(where: { !blank.contains($0) }) else { return nil }
        return .message(Data(line))
    }
}
