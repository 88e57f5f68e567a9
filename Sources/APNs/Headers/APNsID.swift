import Synchronization

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

    /// A random (version 4) UUID, unique within the process.
    ///
    /// Two seeds are drawn from the system generator once per process; each id mixes them with a
    /// process-wide counter (SplitMix64's finaliser, a bijection), so ids never repeat in a process
    /// and cost no system call (the system generator makes one per draw: two per id was measured
    /// at a few percent of a bulk send).
    public static func random() -> APNsID {
        let count = IDStream.counter.wrappingAdd(1, ordering: .relaxed).oldValue &* 0x9E37_79B9_7F4A_7C15
        var draws = TwoDraws(first: IDStream.mix(IDStream.seeds.0 &+ count), second: IDStream.mix(IDStream.seeds.1 &+ count))
        return random(using: &draws)
    }

    public static func random(using generator: inout some RandomNumberGenerator) -> APNsID {
        // Two 64-bit draws, not sixteen byte draws: the system generator makes a system call per draw.
        let high = (generator.next() & 0xFFFF_FFFF_FFFF_0FFF) | 0x4000  // version 4
        let low = (generator.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 4122 variant
        let digits: StaticString = "0123456789abcdef"
        let text = String(unsafeUninitializedCapacity: 36) { buffer in
            digits.withUTF8Buffer { digits in
                var position = 0
                for nibble in 0..<32 {
                    if position == 8 || position == 13 || position == 18 || position == 23 {
                        buffer[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    let word = nibble < 16 ? high : low
                    let shift = UInt64(60 - 4 * (nibble % 16))
                    buffer[position] = digits[Int((word >> shift) & 0x0F)]
                    position += 1
                }
            }
            return 36
        }
        return APNsID(canonical: text)
    }

    public var description: String { value }
}

/// The process-wide state behind `APNsID.random()`.
private enum IDStream {
    static let seeds: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()
    static let counter = Atomic<UInt64>(0)

    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Hands out two prepared values as a generator's first two draws (then the second again).
private struct TwoDraws: RandomNumberGenerator {
    var first: UInt64?
    let second: UInt64

    init(first: UInt64, second: UInt64) {
        self.first = first
        self.second = second
    }

    mutating func next() -> UInt64 {
        defer { first = nil }
        return first ?? second
    }
}
