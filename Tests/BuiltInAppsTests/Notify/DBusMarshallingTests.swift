import Testing

@testable import BuiltInApps

/// The D-Bus wire format: padding, array lengths, signatures, messages and addresses, checked
/// byte for byte against the specification's rules.
@Suite struct DBusMarshallingTests {
    private func encoded(_ values: DBusValue...) -> [UInt8] {
        var encoder = DBusEncoder()
        for value in values { encoder.encode(value) }
        return encoder.bytes
    }

    @Test func numbersArePaddedToTheirOwnSizeFromTheStart() {
        #expect(encoded(.byte(1), .uint32(7)) == [1, 0, 0, 0, 7, 0, 0, 0])
        #expect(encoded(.byte(1), .int16(-2)) == [1, 0, 0xFE, 0xFF])
        #expect(encoded(.byte(1), .int64(1)) == [1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0])
        #expect(encoded(.boolean(true)) == [1, 0, 0, 0])
        #expect(encoded(.int32(-1)) == [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(encoded(.double(1)) == [0, 0, 0, 0, 0, 0, 0xF0, 0x3F])
    }

    @Test func textsHaveALengthAndANulAndSignaturesAByteLength() {
        #expect(encoded(.string("hé")) == [3, 0, 0, 0, 0x68, 0xC3, 0xA9, 0])
        #expect(encoded(.objectPath("/a")) == [2, 0, 0, 0, 0x2F, 0x61, 0])
        #expect(encoded(.signature("su")) == [2, 0x73, 0x75, 0])
        #expect(encoded(.string("")) == [0, 0, 0, 0, 0])
    }

    @Test func anArrayOfEightAlignedElementsIsPaddedAfterItsLengthWhichLeavesThePaddingOut() {
        let hints = DBusValue.array(elementSignature: "{sv}", [.dictionaryEntry(.string("urgency"), .variant(.byte(2)))])
        #expect(hints.signature == "a{sv}")
        // length 16, 4 bytes of padding to 8, "urgency" (4 + 7 + 1), signature "y" (1 + 1 + 1), the byte.
        #expect(encoded(hints) == [16, 0, 0, 0, 0, 0, 0, 0] + [7, 0, 0, 0] + Array("urgency".utf8) + [0, 1, 0x79, 0, 2])
        // An empty one is padded too.
        #expect(encoded(.array(elementSignature: "{sv}", []), .byte(42)) == [0, 0, 0, 0, 0, 0, 0, 0, 42])
        #expect(encoded(.array(elementSignature: "s", []), .byte(42)) == [0, 0, 0, 0, 42])
    }

    @Test func structsStartAtAMultipleOfEight() {
        #expect(encoded(.byte(9), .structure([.byte(1), .uint32(2)])) == [9, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0])
    }

    @Test func theNotifyArgumentsDecodeToWhatWasEncoded() throws {
        let call = NotificationServer.notifyCall(title: "Backup done", body: "3 files", urgency: 2)
        #expect(call.signature == "susssasa{sv}i")
        var encoder = DBusEncoder()
        for value in call.body { encoder.encode(value) }
        var decoder = DBusDecoder(bytes: encoder.bytes)
        #expect(try decoder.decodeAll(signature: "susssasa{sv}i") == call.body)
        #expect(decoder.offset == encoder.bytes.count)
    }

    @Test func signaturesSplitIntoCompleteTypes() throws {
        #expect(try DBusSignature.completeTypes(of: "susssasa{sv}i") == ["s", "u", "s", "s", "s", "as", "a{sv}", "i"])
        #expect(try DBusSignature.completeTypes(of: "a(yv)aa{s(ii)}") == ["a(yv)", "aa{s(ii)}"])
        #expect(throws: DBusError.self) { try DBusSignature.completeTypes(of: "a(yv") }
        #expect(throws: DBusError.self) { try DBusSignature.completeTypes(of: "h") }
        #expect(throws: DBusError.self) { try DBusSignature.completeTypes(of: "()") }
    }

    @Test func aMessageRoundTripsAndItsBodyStartsAtAMultipleOfEight() throws {
        let call = NotificationServer.notifyCall(title: "T", body: "B", urgency: 0)
        let bytes = call.encoded(serial: 5)
        #expect(bytes[0] == UInt8(ascii: "l") && bytes[1] == 1 && bytes[3] == 1)
        #expect(try DBusMessage.length(ofMessageStartingWith: Array(bytes.prefix(16))) == bytes.count)
        let decoded = try DBusMessage(bytes: bytes)
        #expect(decoded.serial == 5)
        #expect(decoded.destination == "org.freedesktop.Notifications")
        #expect(decoded.path == "/org/freedesktop/Notifications")
        #expect(decoded.member == "Notify")
        #expect(decoded.body == call.body)
        var bodyEncoder = DBusEncoder()
        for value in call.body { bodyEncoder.encode(value) }
        #expect((bytes.count - bodyEncoder.bytes.count) % 8 == 0)

        var reply = decoded
        reply.sender = ":1.7"
        let answer = try DBusMessage(bytes: reply.methodReturn(body: [.uint32(3)]).encoded(serial: 9))
        #expect(answer.kind == .methodReturn && answer.replySerial == 5 && answer.destination == ":1.7")
        #expect(answer.body == [.uint32(3)])
    }

    @Test func truncatedOrWrongBytesAreRefusedNotTrusted() throws {
        let bytes = NotificationServer.notifyCall(title: "T", body: "B", urgency: 0).encoded(serial: 1)
        #expect(throws: DBusError.self) { try DBusMessage(bytes: Array(bytes.dropLast())) }
        #expect(throws: DBusError.self) { try DBusMessage(bytes: [UInt8(ascii: "B")] + bytes.dropFirst()) }
        var tooLong = DBusDecoder(bytes: [0xFF, 0xFF, 0, 0, 0x61])
        #expect(throws: DBusError.self) { try tooLong.decode(signature: "s") }
        var notBoolean = DBusDecoder(bytes: [2, 0, 0, 0])
        #expect(throws: DBusError.self) { try notBoolean.decode(signature: "b") }
    }

    @Test func addressesNameSocketFilesOrAbstractNames() throws {
        #expect(try DBusAddress.sockets(in: "unix:path=/run/user/1000/bus") == [.path("/run/user/1000/bus")])
        #expect(try DBusAddress.sockets(in: "unix:abstract=/tmp/dbus-Ab,guid=01") == [.abstract("/tmp/dbus-Ab")])
        #expect(try DBusAddress.sockets(in: "tcp:host=x,port=1;unix:path=/tmp/a%2cb") == [.path("/tmp/a,b")])
        #expect(throws: DBusError.unsupportedAddress("tcp:host=localhost,port=1")) { try DBusAddress.sockets(in: "tcp:host=localhost,port=1") }
    }
}
