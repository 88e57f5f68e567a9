/// The `apns-id` header: a canonical UUID (8-4-4-4-12 hex digits), lowercase on the wire.
public struct APNsID: Sendable, Hashable, CustomStringConvertible {
    /// The canonical lowercase form.
    public let value: String

    /// Parses a UUID in either case and keeps it lowercase.
    public init(_ text: String) throws(FieldError) {
        let bytes = Array(text.utf8)
        let dashes = [8, 13, 18, 23]
        let valid =
            bytes.count == 36
            && bytes.enumerated().allSatisfy { position, byte in
                dashes.contains(position) ? byte == UInt8(ascii: "-") : Hex.value(of: byte) != nil
            }
        guard valid else {
            throw FieldError(
                field: "apns-id",
                message: "\(quoted(text)) is not a UUID; use 8-4-4-4-12 hexadecimal digits, e.g. 123e4567-e89b-12d3-a456-4266554400a0")
        }
        self.value = text.lowercased()
    }

    private init(canonical: String) {
        self.value = canonical
    }

    /// A random (version 4) UUID.
    public static func random() -> APNsID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    public static func random(using generator: inout some RandomNumberGenerator) -> APNsID {
        // Two 64-bit draws, not sixteen byte draws: the system generator makes a system call per draw.
        let high = generator.next()
        let low = generator.next()
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = Hex.encode(bytes)
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return APNsID(canonical: parts.joined(separator: "-"))
    }

    public var description: String { value }
}
