/// A device token (or Live Activity push token): hexadecimal with an even number of digits, kept
/// lowercase. No length is fixed: device tokens are 64 digits today, Live Activity tokens longer.
public struct DeviceToken: Sendable, Hashable, CustomStringConvertible {
    /// The token as lowercase hex, as it goes in `/3/device/<token>`.
    public let hex: String

    /// Parses a hex string in either case. Spaces and angle brackets (as in an old `NSData`
    /// description, `<a1b2 c3d4>`) are not accepted: pass the digits only.
    public init(hex text: String) throws(FieldError) {
        // Native strings: eight digits at a time; the text itself is kept when already lowercase
        // (bulk sends parse a token per line).
        if let (count, hasUppercase) = text.utf8.withContiguousStorageIfAvailable(Self.scanDigits) ?? nil,
            count > 0, count % 2 == 0
        {
            self.hex = hasUppercase ? text.lowercased() : text
            return
        }
        // Anything else (and every error, named): one pass over the UTF-8 view.
        var count = 0
        var hasUppercase = false
        for byte in text.utf8 {
            guard Hex.value(of: byte) != nil else {
                let character = String(text.utf8.dropFirst(count).prefix(1)) ?? "?"
                throw FieldError(
                    field: "token",
                    message: "\(quoted(text)) has '\(character)' at position \(count + 1); a device token is hexadecimal digits only")
            }
            if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "F") { hasUppercase = true }
            count += 1
        }
        guard count > 0 else { throw FieldError(field: "token", message: "is empty; a device token is hexadecimal digits") }
        guard count % 2 == 0 else {
            throw FieldError(field: "token", message: "\(quoted(text)) has \(count) hex digits; a device token has an even number")
        }
        self.hex = hasUppercase ? text.lowercased() : text
    }

    /// The number of digits and whether any is uppercase, when `bytes` are hex digits only.
    private static func scanDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Bool)? {
        guard let base = bytes.baseAddress else { return (0, false) }
        var position = 0
        var lowercaseBits: UInt64 = 0x2020_2020_2020_2020
        while position + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
            guard DevicePushValidator.areHexDigits(word) else { return nil }
            lowercaseBits &= word  // 0-9 and a-f have 0x20; A-F do not
            position += 8
        }
        var hasUppercase = lowercaseBits != 0x2020_2020_2020_2020
        while position < bytes.count {
            let byte = bytes[position]
            guard DevicePushValidator.isHexDigit(byte) else { return nil }
            if byte & 0x20 == 0 { hasUppercase = true }
            position += 1
        }
        return (bytes.count, hasUppercase)
    }

    /// A token from the raw bytes the device handed to the app (`Data` in Swift on the device).
    public init(bytes: some Sequence<UInt8>) throws(FieldError) {
        let encoded = Hex.encode(bytes)
        guard !encoded.isEmpty else { throw FieldError(field: "token", message: "is empty; a device token has at least one byte") }
        self.hex = encoded
    }

    /// The raw bytes of the token.
    public var bytes: [UInt8] { Hex.decode(hex) ?? [] }

    /// The length of tokens that iOS devices hand out today, in hex digits.
    public static let typicalDeviceLength = 64

    public var description: String { hex }
}
