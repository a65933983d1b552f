/// Writes D-Bus values in the little-endian wire format.
///
/// Every value starts at a multiple of its alignment, counted from the start of the buffer:
/// the encoder keeps that position, so a message's header and its body (which starts at a
/// multiple of 8) are each encoded from zero.
///
/// ```swift
/// var encoder = DBusEncoder()
/// encoder.encode(.byte(1))
/// encoder.encode(.uint32(7))   // three bytes of padding, then 07 00 00 00
/// encoder.bytes.count          // 8
/// ```
package struct DBusEncoder {
    /// What has been written.
    package private(set) var bytes: [UInt8] = []

    /// An empty buffer.
    package init() {}

    /// Writes zero bytes until the position is a multiple of `alignment`.
    package mutating func align(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    /// Writes one value after its padding.
    ///
    /// - Parameter value: The value; an array's length counts its elements' bytes, not the
    ///   padding between the length and the first element.
    package mutating func encode(_ value: DBusValue) {
        switch value {
        case .byte(let byte): bytes.append(byte)
        case .boolean(let flag): encodeInteger(UInt32(flag ? 1 : 0))
        case .int16(let number): encodeInteger(UInt16(bitPattern: number))
        case .uint16(let number): encodeInteger(number)
        case .int32(let number): encodeInteger(UInt32(bitPattern: number))
        case .uint32(let number): encodeInteger(number)
        case .int64(let number): encodeInteger(UInt64(bitPattern: number))
        case .uint64(let number): encodeInteger(number)
        case .double(let number): encodeInteger(number.bitPattern)
        case .string(let text), .objectPath(let text):
            let utf8 = Array(text.utf8)
            encodeInteger(UInt32(utf8.count))
            bytes += utf8
            bytes.append(0)
        case .signature(let text):
            let utf8 = Array(text.utf8)
            bytes.append(UInt8(truncatingIfNeeded: utf8.count))
            bytes += utf8
            bytes.append(0)
        case .array(let elementSignature, let elements):
            align(to: 4)
            let lengthOffset = bytes.count
            bytes += [0, 0, 0, 0]
            align(to: DBusSignature.alignment(of: elementSignature.utf8.first ?? UInt8(ascii: "y")))
            let start = bytes.count
            for element in elements { encode(element) }
            let length = UInt32(bytes.count - start)
            for index in 0..<4 { bytes[lengthOffset + index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
        case .structure(let fields):
            align(to: 8)
            for field in fields { encode(field) }
        case .dictionaryEntry(let key, let value):
            align(to: 8)
            encode(key)
            encode(value)
        case .variant(let inner):
            encode(.signature(inner.signature))
            encode(inner)
        }
    }

    private mutating func encodeInteger<Integer: FixedWidthInteger>(_ number: Integer) {
        align(to: MemoryLayout<Integer>.size)
        withUnsafeBytes(of: number.littleEndian) { bytes += $0 }
    }
}

/// Reads D-Bus values from little-endian wire bytes, directed by their signature.
///
/// Every read is bounds-checked: lengths come from the peer and are never trusted.
///
/// ```swift
/// var decoder = DBusDecoder(bytes: [0x07, 0, 0, 0])
/// try decoder.decode(signature: "u")   // .uint32(7)
/// ```
package struct DBusDecoder {
    /// The bytes being read.
    package let bytes: [UInt8]
    /// The position of the next read, from the start of ``bytes``.
    package private(set) var offset: Int

    /// A decoder at `offset` of `bytes`.
    package init(bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Skips the padding before a value of the given alignment.
    package mutating func align(to alignment: Int) throws {
        let aligned = (offset + alignment - 1) / alignment * alignment
        guard aligned <= bytes.count else { throw DBusError.malformed("the message ends inside padding") }
        offset = aligned
    }

    /// Reads one value per complete type of `signature`.
    ///
    /// ```swift
    /// try decoder.decodeAll(signature: "su")   // [.string(…), .uint32(…)]
    /// ```
    package mutating func decodeAll(signature: String) throws -> [DBusValue] {
        try DBusSignature.completeTypes(of: signature).map { try decode(signature: $0) }
    }

    /// Reads one value of a complete type.
    ///
    /// - Parameter signature: One complete type, such as `a{sv}`.
    /// - Returns: The value.
    /// - Throws: ``DBusError/malformed(_:)`` when the bytes end early or break the format.
    package mutating func decode(signature: String) throws -> DBusValue {
        let codes = Array(signature.utf8)
        guard let code = codes.first else { throw DBusError.malformed("an empty signature") }
        switch code {
        case UInt8(ascii: "y"): return .byte(try readInteger(UInt8.self))
        case UInt8(ascii: "b"):
            let flag = try readInteger(UInt32.self)
            guard flag <= 1 else { throw DBusError.malformed("a boolean is \(flag), neither 0 nor 1") }
            return .boolean(flag == 1)
        case UInt8(ascii: "n"): return .int16(Int16(bitPattern: try readInteger(UInt16.self)))
        case UInt8(ascii: "q"): return .uint16(try readInteger(UInt16.self))
        case UInt8(ascii: "i"): return .int32(Int32(bitPattern: try readInteger(UInt32.self)))
        case UInt8(ascii: "u"): return .uint32(try readInteger(UInt32.self))
        case UInt8(ascii: "x"): return .int64(Int64(bitPattern: try readInteger(UInt64.self)))
        case UInt8(ascii: "t"): return .uint64(try readInteger(UInt64.self))
        case UInt8(ascii: "d"): return .double(Double(bitPattern: try readInteger(UInt64.self)))
        case UInt8(ascii: "s"): return .string(try readText(length: Int(try readInteger(UInt32.self))))
        case UInt8(ascii: "o"): return .objectPath(try readText(length: Int(try readInteger(UInt32.self))))
        case UInt8(ascii: "g"): return .signature(try readText(length: Int(try readInteger(UInt8.self))))
        case UInt8(ascii: "v"):
            guard case .signature(let inner) = try decode(signature: "g") else { throw DBusError.malformed("a variant without a signature") }
            guard try DBusSignature.completeTypes(of: inner).count == 1 else {
                throw DBusError.malformed("a variant's signature '\(inner)' is not one complete type")
            }
            return .variant(try decode(signature: inner))
        case UInt8(ascii: "a"):
            let elementSignature = String(decoding: codes.dropFirst(), as: UTF8.self)
            let length = Int(try readInteger(UInt32.self))
            try align(to: DBusSignature.alignment(of: codes[1]))
            let end = offset + length
            guard end <= bytes.count else { throw DBusError.malformed("an array of \(length) bytes runs past the message's end") }
            var elements: [DBusValue] = []
            while offset < end { elements.append(try decode(signature: elementSignature)) }
            guard offset == end else { throw DBusError.malformed("an array's elements overrun its length") }
            return .array(elementSignature: elementSignature, elements)
        case UInt8(ascii: "("):
            try align(to: 8)
            let fields = try DBusSignature.completeTypes(of: String(decoding: codes.dropFirst().dropLast(), as: UTF8.self))
            return .structure(try fields.map { try decode(signature: $0) })
        case UInt8(ascii: "{"):
            try align(to: 8)
            let parts = try DBusSignature.completeTypes(of: String(decoding: codes.dropFirst().dropLast(), as: UTF8.self))
            guard parts.count == 2 else { throw DBusError.malformed("a dictionary entry '\(signature)' is not a key and a value") }
            return .dictionaryEntry(try decode(signature: parts[0]), try decode(signature: parts[1]))
        default:
            throw DBusError.malformed("the unsupported type code '\(Character(Unicode.Scalar(code)))'")
        }
    }

    private mutating func readInteger<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
        let size = MemoryLayout<Integer>.size
        try align(to: size)
        guard offset + size <= bytes.count else { throw DBusError.malformed("the message ends inside a number") }
        var number: Integer = 0
        for index in 0..<size { number |= Integer(bytes[offset + index]) << (8 * index) }
        offset += size
        return number
    }

    private mutating func readText(length: Int) throws -> String {
        guard offset + length < bytes.count, bytes[offset + length] == 0 else {
            throw DBusError.malformed("a text of \(length) bytes runs past the message's end or lacks its nul")
        }
        guard let text = String(validating: bytes[offset..<offset + length], as: UTF8.self) else {
            throw DBusError.malformed("a text is not UTF-8")
        }
        offset += length + 1
        return text
    }
}
