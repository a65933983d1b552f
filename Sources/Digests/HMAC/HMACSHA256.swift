import Foundation

/// HMAC-SHA256 (RFC 2104, with SHA-256): the code that proves a message was sent by someone who
/// knows a secret key, such as the signature of a webhook's request body.
///
/// A key longer than a block (64 bytes) is replaced by its SHA-256 digest, a shorter one is
/// padded with zeros, as RFC 2104 says. Check a received code with
/// ``isValidAuthenticationCode(_:for:key:)``, which compares in constant time.
///
/// ```swift
/// let key = Data("It's a Secret to Everybody".utf8)
/// let code = HMACSHA256.authenticationCode(for: Data("Hello, World!".utf8), key: key)
/// code.hexadecimal   // "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
///
/// var streaming = HMACSHA256(key: key)
/// streaming.update(Data("Hello, ".utf8))
/// streaming.update(Data("World!".utf8))
/// streaming.finalize() == code   // true
/// ```
public struct HMACSHA256: Sendable {
    /// The inner digest, started with the key's inner pad.
    private var inner: SHA256
    /// The outer digest, started with the key's outer pad.
    private let outer: SHA256

    /// Starts a code with a key.
    ///
    /// - Parameter key: The secret key, of any length (RFC 2104 advises at least 32 bytes).
    public init(key: some DataProtocol) {
        var block = key.count > SHA256.blockByteCount ? SHA256.hash(key).bytes : Array(key)
        block += [UInt8](repeating: 0, count: SHA256.blockByteCount - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        self.inner = inner
        self.outer = outer
    }

    /// Adds bytes of the message.
    ///
    /// - Parameter bytes: The bytes: `Data`, `[UInt8]`, a slice of either.
    public mutating func update(_ bytes: some DataProtocol) {
        inner.update(bytes)
    }

    /// Adds bytes of the message.
    ///
    /// - Parameter bytes: The bytes, in memory.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        inner.update(bytes)
    }

    /// The code of the message added so far.
    ///
    /// - Returns: The 32 bytes.
    public func finalize() -> Digest {
        var outer = self.outer
        outer.update(inner.finalize().bytes)
        return outer.finalize()
    }

    /// The code of a message given at once.
    ///
    /// ```swift
    /// let code = HMACSHA256.authenticationCode(for: body, key: secret)
    /// request.headers["X-Signature-256"] = "sha256=" + code.hexadecimal
    /// ```
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - key: The secret key.
    /// - Returns: The code.
    public static func authenticationCode(for message: some DataProtocol, key: some DataProtocol) -> Digest {
        var code = HMACSHA256(key: key)
        code.update(message)
        return code.finalize()
    }

    /// Whether a received code is the message's code under the key, compared in constant time.
    ///
    /// Only a whole code (32 bytes) is valid: a truncated one is refused, since each byte left
    /// out makes a forgery 256 times easier.
    ///
    /// ```swift
    /// guard HMACSHA256.isValidAuthenticationCode(received, for: body, key: secret) else { throw Refused() }
    /// ```
    ///
    /// - Parameters:
    ///   - code: The code received.
    ///   - message: The message it came with.
    ///   - key: The secret key.
    /// - Returns: Whether the code is right.
    public static func isValidAuthenticationCode(
        _ code: some DataProtocol, for message: some DataProtocol, key: some DataProtocol
    ) -> Bool {
        ConstantTime.isEqual(authenticationCode(for: message, key: key).bytes, Array(code))
    }

    /// Whether a received code, written in hexadecimal digits of either case, is the message's
    /// code under the key, compared in constant time.
    ///
    /// ```swift
    /// // X-Hub-Signature-256: sha256=757107ea0eb2509f…
    /// let signature = header.dropFirst("sha256=".count)
    /// guard HMACSHA256.isValidAuthenticationCode(hexadecimal: signature, for: body, key: secret) else { throw Refused() }
    /// ```
    ///
    /// - Parameters:
    ///   - hexadecimal: The code received, as 64 hexadecimal digits.
    ///   - message: The message it came with.
    ///   - key: The secret key.
    /// - Returns: Whether the text is hexadecimal and the code is right.
    public static func isValidAuthenticationCode(
        hexadecimal: some StringProtocol, for message: some DataProtocol, key: some DataProtocol
    ) -> Bool {
        guard let received = Digest(hexadecimal: hexadecimal) else { return false }
        return isValidAuthenticationCode(received.bytes, for: message, key: key)
    }
}
