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
        let count = IDStream.counter.wrappingAdd(1, ordering: .relaxed).oldValue &* SplitMix64.increment
        var draws = TwoDraws(
            first: SplitMix64.mix(IDStream.seeds.0 &+ count), second: SplitMix64.mix(IDStream.seeds.1 &+ count))
        return random(using: &draws)
    }

    public static func random(using generator: inout some RandomNumberGenerator) -> APNsID {
        // Two 64-bit draws, not sixteen byte draws: the system generator makes a system call per draw.
        let high = generator.next()
        let low = generator.next()
        let text = String(unsafeUninitializedCapacity: 36) { buffer in
            writeVersion4(high: high, low: low, into: buffer)
            return 36
        }
        return APNsID(canonical: text)
    }

    /// Writes the version 4 UUID made of these 128 random bits (the version and variant bits set)
    /// in lowercase 8-4-4-4-12 form over the first 36 bytes of `out`. For callers that keep ids
    /// in their own buffers (the emulator's answers) as well as `random`.
    public static func writeVersion4(high: UInt64, low: UInt64, into out: UnsafeMutableBufferPointer<UInt8>) {
        precondition(out.count >= 36, "a UUID takes 36 bytes")
        let high = high & 0xFFFF_FFFF_FFFF_0FFF | 0x4000  // version 4
        let low = low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000  // RFC 4122 variant
        hexPairs.withUnsafeBufferPointer { pairs in
            out[8] = UInt8(ascii: "-")
            out[13] = UInt8(ascii: "-")
            out[18] = UInt8(ascii: "-")
            out[23] = UInt8(ascii: "-")
            for index in 0..<16 {
                let word = index < 8 ? high : low
                let byte = Int(truncatingIfNeeded: word >> UInt64(56 - 8 * (index & 7))) & 0xFF
                // Two digits per byte; a dash after bytes 4, 6, 8 and 10.
                let position =
                    2 * index + (index >= 4 ? 1 : 0) + (index >= 6 ? 1 : 0) + (index >= 8 ? 1 : 0) + (index >= 10 ? 1 : 0)
                out[position] = pairs[2 * byte]
                out[position + 1] = pairs[2 * byte + 1]
            }
        }
    }

    /// The two lowercase hex digits of each byte value, back to back (512 bytes).
    private static let hexPairs: [UInt8] = {
        let digits = Array("0123456789abcdef".utf8)
        return (0..<256).flatMap { [digits[$0 >> 4], digits[$0 & 0xF]] }
    }()

    public var description: String { value }
}

/// The process-wide state behind `APNsID.random()`.
private enum IDStream {
    static let seeds: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()
    static let counter = Atomic<UInt64>(0)
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
