/// One D-Bus message: a method call, its return or error, or a signal.
///
/// On the wire: the fixed part (`l`, type, flags, version 1, body length, serial), the header
/// fields as an `a(yv)` array, padding to a multiple of 8, then the body.
///
/// ```swift
/// let hello = DBusMessage.methodCall(
///     destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
///     interface: "org.freedesktop.DBus", member: "Hello")
/// let bytes = hello.encoded(serial: 1)
/// ```
package struct DBusMessage: Sendable, Hashable {
    /// The four kinds of message, as the header's type byte encodes them.
    package enum Kind: UInt8, Sendable {
        case methodCall = 1
        case methodReturn = 2
        case error = 3
        case signal = 4
    }

    /// The header field codes this client reads and writes.
    package enum Field: UInt8, Sendable {
        case path = 1
        case interface = 2
        case member = 3
        case errorName = 4
        case replySerial = 5
        case destination = 6
        case sender = 7
        case signature = 8
    }

    /// The `NO_REPLY_EXPECTED` flag.
    package static let noReplyExpected: UInt8 = 0x1

    package var kind: Kind
    package var flags: UInt8 = 0
    /// The serial the sender gave the message (set by ``encoded(serial:)`` when sending).
    package var serial: UInt32 = 0
    package var path: String?
    package var interface: String?
    package var member: String?
    package var errorName: String?
    package var replySerial: UInt32?
    package var destination: String?
    package var sender: String?
    /// The body's values; the `SIGNATURE` header is made of theirs.
    package var body: [DBusValue] = []

    /// A message of a kind, with no header fields yet.
    package init(kind: Kind) {
        self.kind = kind
    }

    /// A method call.
    ///
    /// - Parameters:
    ///   - destination: The bus name that receives the call, such as `org.freedesktop.Notifications`.
    ///   - path: The object path.
    ///   - interface: The interface of the method.
    ///   - member: The method's name.
    ///   - body: The arguments.
    package static func methodCall(
        destination: String?, path: String, interface: String?, member: String, body: [DBusValue] = []
    ) -> DBusMessage {
        var message = DBusMessage(kind: .methodCall)
        message.destination = destination
        message.path = path
        message.interface = interface
        message.member = member
        message.body = body
        return message
    }

    /// The reply to a method call: a return with `body`.
    package func methodReturn(body: [DBusValue] = []) -> DBusMessage {
        var reply = DBusMessage(kind: .methodReturn)
        reply.replySerial = serial
        reply.destination = sender
        reply.body = body
        return reply
    }

    /// The reply to a method call: an error named `name`, with `text` as its message.
    package func errorReply(name: String, text: String) -> DBusMessage {
        var reply = DBusMessage(kind: .error)
        reply.replySerial = serial
        reply.destination = sender
        reply.errorName = name
        reply.body = [.string(text)]
        return reply
    }

    /// The signature of the body: its values' signatures one after another.
    package var signature: String { body.map(\.signature).joined() }

    /// The message's bytes, ready to write to the bus.
    ///
    /// - Parameter serial: A serial, not zero, unique among the sender's messages.
    /// - Returns: The header, its padding and the body.
    package func encoded(serial: UInt32) -> [UInt8] {
        var bodyEncoder = DBusEncoder()
        for value in body { bodyEncoder.encode(value) }
        var fields: [DBusValue] = []
        func add(_ field: Field, _ value: DBusValue?) {
            if let value { fields.append(.structure([.byte(field.rawValue), .variant(value)])) }
        }
        add(.path, path.map(DBusValue.objectPath))
        add(.interface, interface.map(DBusValue.string))
        add(.member, member.map(DBusValue.string))
        add(.errorName, errorName.map(DBusValue.string))
        add(.replySerial, replySerial.map(DBusValue.uint32))
        add(.destination, destination.map(DBusValue.string))
        add(.sender, sender.map(DBusValue.string))
        add(.signature, body.isEmpty ? nil : .signature(signature))
        var header = DBusEncoder()
        for byte in [UInt8(ascii: "l"), kind.rawValue, flags, 1] { header.encode(.byte(byte)) }
        header.encode(.uint32(UInt32(bodyEncoder.bytes.count)))
        header.encode(.uint32(serial))
        header.encode(.array(elementSignature: "(yv)", fields))
        header.align(to: 8)
        return header.bytes + bodyEncoder.bytes
    }

    /// The length of a whole message, read from its first 16 bytes.
    ///
    /// ```swift
    /// let total = try DBusMessage.length(ofMessageStartingWith: first16)
    /// ```
    ///
    /// - Throws: ``DBusError/malformed(_:)`` for a big-endian or unknown message, or one over 128 MiB.
    package static func length(ofMessageStartingWith start: [UInt8]) throws -> Int {
        guard start.count >= 16 else { throw DBusError.malformed("a message shorter than its fixed header") }
        guard start[0] == UInt8(ascii: "l") else { throw DBusError.malformed("a message that is not little-endian") }
        var decoder = DBusDecoder(bytes: start, offset: 4)
        let bodyLength = try decoder.decode(signature: "u").integer ?? 0
        _ = try decoder.decode(signature: "u")
        let fieldsLength = try decoder.decode(signature: "u").integer ?? 0
        let headerLength = (16 + fieldsLength + 7) / 8 * 8
        let total = headerLength + bodyLength
        guard total <= 128 << 20 else { throw DBusError.malformed("a message of \(total) bytes, over the 128 MiB limit") }
        return total
    }

    /// Reads a whole message.
    ///
    /// ```swift
    /// let message = try DBusMessage(bytes: received)
    /// ```
    ///
    /// - Parameter bytes: Exactly one message, as ``length(ofMessageStartingWith:)`` measures it.
    /// - Throws: ``DBusError/malformed(_:)`` when the bytes break the format.
    package init(bytes: [UInt8]) throws {
        let total = try Self.length(ofMessageStartingWith: bytes)
        guard bytes.count == total else { throw DBusError.malformed("a message of \(bytes.count) bytes, not the \(total) its header says") }
        guard let kind = Kind(rawValue: bytes[1]) else { throw DBusError.malformed("an unknown message type \(bytes[1])") }
        self.init(kind: kind)
        flags = bytes[2]
        var decoder = DBusDecoder(bytes: bytes, offset: 8)
        serial = UInt32(try decoder.decode(signature: "u").integer ?? 0)
        var bodySignature = ""
        guard case .array(_, let fields) = try decoder.decode(signature: "a(yv)") else { throw DBusError.malformed("no header fields") }
        for field in fields {
            guard case .structure(let parts) = field, parts.count == 2, case .byte(let code) = parts[0], case .variant(let value) = parts[1] else {
                throw DBusError.malformed("a header field that is not a code and a variant")
            }
            switch Field(rawValue: code) {
            case .path: path = value.text
            case .interface: interface = value.text
            case .member: member = value.text
            case .errorName: errorName = value.text
            case .replySerial: replySerial = value.integer.map { UInt32(truncatingIfNeeded: $0) }
            case .destination: destination = value.text
            case .sender: sender = value.text
            case .signature: bodySignature = value.text ?? ""
            case nil: break  // Fields this client does not use, such as UNIX_FDS, are skipped.
            }
        }
        try decoder.align(to: 8)
        var bodyDecoder = DBusDecoder(bytes: Array(bytes[decoder.offset...]))
        body = try bodyDecoder.decodeAll(signature: bodySignature)
    }
}
