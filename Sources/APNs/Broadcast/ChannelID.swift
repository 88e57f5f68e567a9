/// The `apns-channel-id` header: the opaque id APNs gives a broadcast channel when it creates it,
/// standard base64 (RFC 4648 section 4, with padding), e.g. `dHN0LXNyY2gtY2hubA==`.
public struct ChannelID: Sendable, Hashable, CustomStringConvertible {
    /// The id exactly as APNs wrote it.
    public let value: String

    /// Accepts non-empty standard base64 whose length is a multiple of 4 and whose padding, if
    /// any, is at the end; the decoded bytes are never looked at (the id is opaque).
    public init(_ text: String) throws(FieldError) {
        guard !text.isEmpty else {
            throw FieldError(
                field: "apns-channel-id", message: "is empty; use the id APNs returned when it created the channel")
        }
        guard Self.isBase64(Array(text.utf8)) else {
            throw FieldError(
                field: "apns-channel-id",
                message: "\(quoted(text)) is not a channel id; channel ids are base64 (A-Z a-z 0-9 + /, '=' padding)")
        }
        value = text
    }

    /// A new id of `bytes` random bytes, in base64.
    public static func random(bytes count: Int = 16, using generator: inout some RandomNumberGenerator) -> ChannelID {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) where bytes.count < count {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return ChannelID(uncheckedValue: Base64.encode(bytes))
    }

    private init(uncheckedValue: String) {
        value = uncheckedValue
    }

    public var description: String { value }

    private static func isBase64(_ bytes: [UInt8]) -> Bool {
        guard bytes.count % 4 == 0 else { return false }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return false }
        return bytes.dropLast(padding).allSatisfy { Base64.value(of: $0) != nil }
    }
}

/// Standard base64 (RFC 4648 section 4) with padding, for channel ids.
enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var word = 0
            for (offset, byte) in chunk.enumerated() { word |= Int(byte) << (16 - 8 * offset) }
            for position in 0..<4 {
                out.append(position <= chunk.count ? alphabet[(word >> (18 - 6 * position)) & 63] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
