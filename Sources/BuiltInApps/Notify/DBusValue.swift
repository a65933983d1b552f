/// One value of the D-Bus type system, as a message body carries it.
///
/// The wire format has no type tags: a value's ``signature`` says how its bytes are read.
/// Containers carry what an empty one still needs to be written (an array its element's
/// signature).
///
/// ```swift
/// let hints = DBusValue.array(elementSignature: "{sv}", [
///     .dictionaryEntry(.string("urgency"), .variant(.byte(2)))
/// ])
/// hints.signature   // "a{sv}"
/// ```
package indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// An array of values of one type, `a<element>`; a dictionary is an array of
    /// ``dictionaryEntry(_:_:)`` with the element signature `{kv}`.
    case array(elementSignature: String, [DBusValue])
    /// A struct, `(…)`.
    case structure([DBusValue])
    /// A key and its value, inside an array only: `{kv}`.
    case dictionaryEntry(DBusValue, DBusValue)
    /// A value that carries its own signature, `v`.
    case variant(DBusValue)

    /// The value's signature: one complete type.
    ///
    /// ```swift
    /// DBusValue.structure([.string("a"), .uint32(1)]).signature   // "(su)"
    /// ```
    package var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .dictionaryEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .variant: "v"
        }
    }

    /// The text of a `s`, `o` or `g` value.
    package var text: String? {
        switch self {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    /// The number in an integer value of any width.
    package var integer: Int? {
        switch self {
        case .byte(let value): Int(value)
        case .int16(let value): Int(value)
        case .uint16(let value): Int(value)
        case .int32(let value): Int(value)
        case .uint32(let value): Int(value)
        case .int64(let value): Int(value)
        case .uint64(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The entries of an `a{…}` array as pairs, in their order.
    package var dictionaryEntries: [(key: DBusValue, value: DBusValue)]? {
        guard case .array(_, let elements) = self else { return nil }
        var entries: [(key: DBusValue, value: DBusValue)] = []
        for element in elements {
            guard case .dictionaryEntry(let key, let value) = element else { return nil }
            entries.append((key, value))
        }
        return entries
    }
}

/// Splitting signatures into complete types, and the alignment of each type.
package enum DBusSignature {
    /// The complete types a signature is made of, in order.
    ///
    /// ```swift
    /// try DBusSignature.completeTypes(of: "susssasa{sv}i")
    /// // ["s", "u", "s", "s", "s", "as", "a{sv}", "i"]
    /// ```
    ///
    /// - Parameter signature: A signature such as a message's `SIGNATURE` header.
    /// - Returns: One signature per value.
    /// - Throws: ``DBusError/malformed(_:)`` for an unknown code or an unbalanced container.
    package static func completeTypes(of signature: String) throws -> [String] {
        let codes = Array(signature.utf8)
        var types: [String] = []
        var index = 0
        while index < codes.count {
            let end = try endOfCompleteType(codes, from: index)
            types.append(String(decoding: codes[index..<end], as: UTF8.self))
            index = end
        }
        return types
    }

    /// The alignment, in bytes, of values whose signature starts with `code`.
    ///
    /// ```swift
    /// DBusSignature.alignment(of: UInt8(ascii: "{"))   // 8
    /// ```
    package static func alignment(of code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 4  // b i u s o a h
        }
    }

    private static func endOfCompleteType(_ codes: [UInt8], from start: Int) throws -> Int {
        guard start < codes.count else { throw DBusError.malformed("the signature ends inside a container") }
        switch codes[start] {
        case UInt8(ascii: "a"):
            return try endOfCompleteType(codes, from: start + 1)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let closing = codes[start] == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            var index = start + 1
            while index < codes.count, codes[index] != closing {
                index = try endOfCompleteType(codes, from: index)
            }
            guard index < codes.count, index > start + 1 else {
                throw DBusError.malformed("the signature has an empty or unclosed container")
            }
            return index + 1
        case let code where "ybnqiuxtdsogv".utf8.contains(code):
            return start + 1
        case let code:
            throw DBusError.malformed("the signature has the unsupported type code '\(Character(Unicode.Scalar(code)))'")
        }
    }
}
